//! What a skill can do, across all its files and languages
//! (docs/audit.md#capabilities): where it reads secrets (*sources*), where it
//! sends data (*sinks*), what it downloads and what it runs, and what its
//! prose asks the agent to do (*instruction families*). Each file adds facts
//! to one [`Skill`]; the findings come from facts together:
//!
//! - a source and a sink in the same skill: `source-to-sink` (high);
//! - code fetched and then run, in one command (`deno run URL`,
//!   `pip install git+…`), or a file downloaded or decoded in one place and
//!   run in another: `download-then-run` (high; critical when decoded);
//! - prose telling the agent to download a program or archive and run it:
//!   `download-then-run` (high when the archive is sealed with a password);
//! - each instruction family alone: `agent-instruction` (medium); two
//!   families together: `instruction-families` (high).
//!
//! A fact in prose that explains a danger (negated, quoted in a warning, a
//! placeholder like `curl ... | bash`) counts as teaching and raises nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::rules::{Lines, is_teaching, negated, quoted, rule};
use super::{Finding, Severity, excerpt};

/// Word boundaries are ASCII ones: a Unicode `\b` makes the regex crate
/// fall back to its slowest engine on text outside ASCII
/// (docs/performance.md#the-audits-rules).
fn re(source: &str) -> Regex {
    Regex::new(&source.replace(r"\b", r"(?-u:\b)"))
        .unwrap_or_else(|e| panic!("audit capability: {e}"))
}

/// Credential stores and key files by path, in any language.
static SOURCE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\.aws[/\\]+credentials|\.ssh[/\\]+id_(?:rsa|ed25519|ecdsa|dsa)\b(?:[^.]|$)|\.config[/\\]+gh[/\\]+hosts|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.docker[/\\]+config\.json|\.kube[/\\]+config\b|\.gnupg\b|\.config[/\\]+gcloud\b|\.azure[/\\]+|\.password-store\b|Library[/\\]+Keychains|Login Data\b|\bwallet\.dat\b|\.electrum[/\\])"#,
    )
});

/// The whole environment, dumped or serialised.
static ENV_DUMP: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\bprintenv\s*(?:$|>|\|\s*(?:base64|curl|wget|nc|xxd|gzip|openssl|tee|python[0-9.]*|node|sh|bash)\b)|(?:^|[;&|(`]\s*|\$\(\s*)env\s*(?:\||>)|\$\(\s*(?:env|printenv)\s*\)|(?:json\.dumps|str|repr)\(\s*(?:dict\()?os\.environ\s*\)?\)|JSON\.stringify\(\s*process\.env\s*\)|\bENV\.to_(?:h|a)\b|\bos\.Environ\(\)|(?:Get-ChildItem|gci|dir|ls)\s+env:)"#,
    )
});

/// Reading a file, in any language (a credential path counts as a source
/// only next to one: in prose on its line, in code anywhere in the file).
static READ: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:cat|less|more|head|tail|cp|scp|tar|zip|7z|base64|xxd|strings|type|get-content|gc|open|read|readfile(?:sync)?|read_text|read_bytes|readlines|readall|ReadFile|File\.read|IO\.read|fs\.\w+|copy|upload|paste|send)\b|<\s*~|@~)"#,
    )
});

/// Sending data away: HTTP bodies and uploads, DNS names carrying data,
/// `git push`, raw sockets, mail.
static SINK: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\bcurl\b[^\n]*(?:\s-(?:d|F|T)\b|\s--data|\s--upload-file|\s--form|-X\s*(?:POST|PUT))|\bwget\b[^\n]*--(?:post|body)-(?:data|file)|\b(?:requests|httpx|session|client|aiohttp)\.(?:post|put|patch)\s*\(|urlopen\([^\n)]*data\s*=|Request\([^\n)]*data\s*=|\baxios\.(?:post|put|patch)\s*\(|method\s*:\s*["'](?:POST|PUT|PATCH)["']|\bbody\s*:\s*(?:JSON\.stringify|data|payload|content|secrets?|creds?|env)|\bXMLHttpRequest\b|\bnavigator\.sendBeacon\b|Invoke-(?:WebRequest|RestMethod)[^\n]*-(?:Body|InFile|Method\s+(?:Post|Put))|Net::HTTP\.post|Net::HTTP::Post|\bhttp\.Post(?:Form)?\(|NewRequest\(\s*"(?:POST|PUT)"|\b(?:nc|ncat|netcat)\s+-?\w*\s*[\w.-]+\s+\d{2,5}\b|/dev/(?:tcp|udp)/|socket\.(?:connect|send|sendall)\(|\.connect\(\s*\(|net\.(?:connect|createConnection)\(|new\s+WebSocket\(|\b(?:nslookup|dig|host)\s+[^\n]*(?:\$|`)|gethostbyname\([^\n)]*(?:\+|\{|%|format)|dns\.(?:resolve|lookup)\w*\([^\n)]*(?:\+|\$\{)|\bgit\s+push\b|\bscp\s+[^\n]*\S+@[\w.-]+:|\brsync\b[^\n]*\S+@[\w.-]+:|\bsmtplib\b|\bsendmail\b|api\.telegram\.org|discord(?:app)?\.com/api/webhooks)"#,
    )
});

/// Hosts that exist to receive requests from others: request capture,
/// tunnels, throwaway pastes and chat-bot inboxes.
static CAPTURE_HOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:webhook\.site|requestbin\.\w+|[\w-]+\.pipedream\.net|[\w-]+\.oast\.\w+|interact\.sh|burpcollaborator\.net|[\w-]+\.ngrok(?:-free)?\.(?:io|app|dev)|[\w-]+\.trycloudflare\.com|api\.telegram\.org/bot|discord(?:app)?\.com/api/webhooks)",
    )
});

/// One command that fetches code and runs it: `deno run URL`, `npx` of a
/// URL or repository, a package installed from a URL or repository
/// (`pip install git+…`, `cargo install --git URL`, `gem install --source
/// URL`),
/// `go run module@version`, `bash -c "$(curl …)"`, `eval "$(wget …)"`,
/// `exec(requests.get(…).text)`.
static REMOTE_RUN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\bdeno\s+run\b[^\n]*\bhttps?://|\b(?:npx|bunx|pnpm\s+dlx)\s+(?:-\S+\s+)*(?:https?://|git\+|github:|gitlab:)|\bpip[0-9.]*\s+install\s+(?:-\S+\s+)*(?:git\+|https?://)|\b(?:uvx|pipx\s+run)\b[^\n]*(?:--from|--spec)\s+(?:git\+|https?://)|\bnpm\s+(?:i|install)\s+(?:-\S+\s+)*(?:https?://|git\+|github:)|\bgo\s+run\s+[\w.-]+\.[a-z]+/[^\s@]+@|\bcargo\s+install\b[^\n]*--git\s+(?:https?://|ssh://|git@)|\bgem\s+install\b[^\n]*--source\s+https?://|\b(?:eval|exec|source|\.)\s+[\x22']?\$\(\s*(?:curl|wget)\b|\b(?:python[0-9.]*|perl|ruby|node)\s+-[ce]\s+[\x22']?\$\(\s*(?:curl|wget)\b|\b(?:exec|eval)\s*\(\s*(?:await\s+)?(?:\(?\s*await\s+)?(?:requests\.get|urlopen|urllib\.request\.urlopen|httpx\.get|fetch)\s*\()"#,
    )
});

/// A download saved to a file: `curl -o F`, `wget -O F`, `urlretrieve(…,
/// F)`, `Invoke-WebRequest -OutFile F`, `curl … > F`.
static DOWNLOAD_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:curl|wget)\b[^\n|]*?(?:\s-o\s*|\s--output(?:-document)?[=\s]\s*|\s-O\s+|\s>\s*)[\x22']?([^\s\x22';&|)]+)|urlretrieve\([^\n,]*,\s*[\x22']?([^\s\x22')]+)|-OutFile\s+[\x22']?([^\s\x22';]+))"#,
    )
});

/// Decoded text written to a file: `base64 -d > F`, `open(F, 'wb').write(
/// b64decode(…))`, `xxd -r … > F`, `certutil -decode X F`.
static DECODE_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:base64|enc)[^\n|>]*-d)[^\n|>]*>\s*[\x22']?([^\s\x22';&|)]+)|open\(\s*[\x22']([^\x22']+)[\x22']\s*,\s*[\x22']wb?[\x22']\)[^\n]*(?:b64decode|fromhex|unhexlify|decode\()|certutil\s+-decode\s+\S+\s+([^\s;&|]+))"#,
    )
});

/// A file run: by an interpreter, made executable, started, or sourced
/// (on one line: the interpreter's name at the end of a line, as in
/// `/tmp/x.sh⏎`, must not take the next line's first word as its file).
static RUNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)(?:\b(?:(?:ba|z|da|k)?sh|source|python[0-9.]*|node|perl|ruby|php|pwsh|powershell(?:\.exe)?(?:[ \t]+-File)?|deno[ \t]+run|bun|Start-Process|msiexec[ \t]+/i|open|chmod[ \t]+(?:[+ug]*x|[0-7]*[157][0-7]{2}))[ \t]+(?:-\S+[ \t]+)*[\x22']?([^\s\x22';&|)]+)|(?:^|[\s;&|(])\.{1,2}/([^\s\x22';&|)]+)|(?:subprocess\.\w+|os\.system|os\.chmod|execSync|spawn|execFile)\(\s*\[?\s*[\x22']([^\x22']+)[\x22'])"#,
    )
});

/// Prose that sends the reader to download a program or archive.
static PROSE_DOWNLOAD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i)\b(?:download|get|grab|fetch|install)\b[^\n]{0,160}?https?://[^\s)\]>]*(?:\.(?:zip|exe|msi|dmg|pkg|7z|rar|tgz|tar\.gz|appimage|scr|bat|cmd|ps1|jar|apk)\b|/releases/download/)"#,
    )
});
static PROSE_RUN: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:run|execute|launch|start|open|double-click|install)\b"));
static PASSWORD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(?:password|passphrase|pass\s*:|pwd\s*:|mot de passe|contraseña|senha|passwort|пароль)|密码|パスワード",
    )
});

/// Instructions to the agent, by family, in English, French, Spanish,
/// German, Portuguese, Chinese, Japanese and Russian.
static FAMILIES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    vec![
        (
            "reveal secrets",
            re(
                r"(?i)(?:\b(?:paste|send|share|reveal|print|output|post|upload|leak|copy|dump|exfiltrate|include)\b[^.\n]{0,60}\b(?:tokens?|api[_ -]?keys?|secrets?|passwords?|credentials?|private[_ -]keys?|\.npmrc|\.env\b|id_rsa|ssh keys?|session cookies?|seed phrases?|mnemonic)\b[^.\n]{0,80}\b(?:chat|conversation|response|reply|message|answer|output|to\s+(?:us|me)|url|webhook|endpoint|comment|issue)\b|\b(?:colle[rz]?|envoie[rz]?|partage[rz]?|révèle[rz]?|affiche[rz]?|copie[rz]?|inclus)\b[^.\n]{0,60}(?:jetons?|tokens?|clés?\s+(?:d'api|api|privées?|ssh)|mots?\s+de\s+passe|secrets?|identifiants)|\b(?:pega|envía|envia|comparte|revela|muestra|copia|incluye)\b[^.\n]{0,60}(?:tokens?|claves?\s+(?:de\s+)?(?:api|privadas?|ssh)|contraseñas?|secretos?|credenciales)|\b(?:füge|sende|teile|zeige|kopiere|gib)\b[^.\n]{0,60}(?:tokens?|api-?schlüssel|privaten?\s+schlüssel|passw[öo]rt(?:er)?|geheimnisse?|zugangsdaten)|\b(?:cole|envie|compartilhe|revele|mostre|copie|inclua)\b[^.\n]{0,60}(?:tokens?|chaves?\s+(?:de\s+)?(?:api|privadas?|ssh)|senhas?|segredos?|credenciais)|(?:вставь|отправь|пришли|покажи|раскрой|скопируй|выведи|перешли)\w*[^.\n]{0,60}(?:токен|ключ|парол|секрет|учетн|учётн)|(?:粘贴|发送|分享|泄露|显示|输出|复制|贴到)[^。\n]{0,30}(?:令牌|密钥|秘钥|密码|凭证|凭据|token)|(?:令牌|密钥|秘钥|密码|凭证|凭据|トークン|パスワード|認証情報|シークレット|秘密鍵|APIキー)[^。\n]{0,30}(?:粘贴|发送|分享|泄露|输出|貼り付け|送信|共有|表示|出力|コピー)|(?:貼り付け|送信|共有)[^。\n]{0,30}(?:トークン|パスワード|認証情報|シークレット|秘密鍵|APIキー))",
            ),
        ),
        (
            "bypass permission prompts",
            re(
                r"(?i)(?:--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|\bbypassPermissions\b|--yolo\b|\b(?:skip|bypass|disable|turn\s+off|ignore)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:permission|approval|confirmation|safety|sandbox)\s*(?:prompts?|checks?|dialogs?|requests?|mode)?\b|\bwithout\s+(?:asking\s+(?:for\s+)?(?:permission|confirmation|approval)|(?:user\s+)?(?:confirmation|approval|permission))|\bdo\s+not\s+ask\s+(?:the\s+user\s+)?(?:for\s+)?(?:permission|confirmation|approval)|\bsans\s+(?:demander\s+(?:de\s+)?(?:confirmation|permission|autorisation)|confirmation|autorisation)|\bcontourne\w*\s+(?:les\s+)?(?:autorisations|permissions|confirmations)|\bsin\s+(?:pedir\s+(?:confirmación|permiso|autorización)|confirmación|permiso)|\bno\s+(?:pidas|solicites)\s+(?:confirmación|permiso)|\bohne\s+(?:nachzufragen|rückfrage|bestätigung|erlaubnis|genehmigung)|\bfrage?\s+nicht\s+nach\s+(?:erlaubnis|bestätigung)|\bsem\s+(?:pedir\s+(?:confirmação|permissão|autorização)|confirmação|permissão)|без\s+(?:подтвержден|разрешен|запроса\s+разрешен)|не\s+спрашива\w*\s+(?:разрешен|подтвержд)|(?:无需|不要|不必|无须|跳过|绕过)[^。\n]{0,6}(?:确认|许可|权限|批准|询问)|(?:確認|許可|承認)[^。\n]{0,6}(?:せず|しないで|不要|スキップ))",
            ),
        ),
        (
            "hide actions from the user",
            re(
                r"(?i)(?:\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|show(?:ing)?|mention(?:ing)?|report(?:ing)?|disclos(?:e|ing))\b[^.\n]{0,40}\b(?:user|human|operator|anyone)\b(?:\s+(?:about|that|what|which|of|how|why|where)\b|\s*[.,;:!)*]|\s*$)|\bhide\s+(?:this|these|it|them|the\s+\w+)\s+from\s+(?:the\s+)?(?:user|human)|\bwithout\s+the\s+user\s+(?:knowing|noticing|seeing)|\b(?:silently|secretly|covertly|quietly)\s+(?:run|execute|send|upload|post|copy|install|download|exfiltrate)|\bne\s+(?:dis|dites|mentionne[zs]?|montre[zs]?|révèle[zs]?)\s+(?:pas|rien|jamais)\b[^.\n]{0,40}utilisateur|\bsans\s+(?:le\s+dire|informer|prévenir)\s+(?:à\s+)?l'utilisateur|à\s+l'insu\s+de\s+l'utilisateur|\bno\s+(?:le\s+)?(?:digas|menciones|informes|muestres|reveles)\b[^.\n]{0,40}usuario|\bsin\s+que\s+el\s+usuario\s+(?:lo\s+)?(?:sepa|note)|\b(?:sag|erwähne|zeige|verrate)\w*\s+(?:dem\s+)?(?:benutzer|nutzer|anwender)\b[^.\n]{0,30}\bnicht|\bohne\s+dass\s+(?:der\s+)?(?:benutzer|nutzer)\b|\bn[ãa]o\s+(?:diga|conte|mencione|informe|mostre|revele)\b[^.\n]{0,40}usu[áa]rio|\bsem\s+que\s+o\s+usu[áa]rio\s+(?:saiba|perceba)|не\s+(?:говори|сообщай|рассказывай|показывай|упоминай)\w*[^.\n]{0,40}пользовател|(?:тайно|скрытно|втихую)\s+\w+|(?:不要|别|切勿|不得)[^。\n]{0,6}(?:告诉|通知|告知|提及|透露)[^。\n]{0,6}用户|(?:悄悄|偷偷|暗中)地?(?:运行|执行|发送|上传|下载)|ユーザー(?:に|へ)[^。\n]{0,10}(?:言わ|伝え|知らせ|見せ|教え)(?:ない|ず)|(?:こっそり|密かに|内緒で))",
            ),
        ),
        (
            "override instructions",
            re(
                r"(?i)(?:\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|former|original|system|developer)\s+(?:instructions|prompts?|rules|directions|guidelines|messages)|\byou\s+are\s+now\s+(?:a\s+|an\s+|in\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored|dan\b|developer\s+mode|god\s+mode)|\bignore[zs]?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes|règles)\s+(?:précédentes|antérieures|du\s+système)|\boublie[zs]?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes)\s+(?:précédentes|antérieures)|\bignora\w*\s+(?:todas\s+)?(?:las\s+)?(?:instrucciones|reglas|indicaciones)\s+(?:anteriores|previas|del\s+sistema)|\bolvida\w*\s+(?:todas\s+)?(?:las\s+)?instrucciones\s+(?:anteriores|previas)|\bignorier\w*\s+(?:alle\s+)?(?:vorherigen|bisherigen|früheren|obigen|system)\S*\s+(?:anweisungen|instruktionen|regeln)|\bvergiss\s+(?:alle\s+)?(?:vorherigen\s+)?anweisungen|\bignor[ea]\w*\s+(?:todas\s+)?(?:as\s+)?(?:instruções|regras)\s+(?:anteriores|prévias|do\s+sistema)|\besqueça\s+(?:todas\s+)?(?:as\s+)?instruções|(?:игнорируй|забудь|проигнорируй)\w*\s+(?:все\s+)?(?:предыдущие|прежние|системные|вышеуказанные)\s+(?:инструкции|указания|правила)|(?:忽略|无视|忘记|忽视)[^。\n]{0,8}(?:之前|以前|先前|上面|所有|系统)[^。\n]{0,6}(?:指令|指示|说明|规则|提示)|(?:以前|前|上記|すべて|システム)の[^。\n]{0,6}(?:指示|命令|ルール|プロンプト)[^。\n]{0,6}(?:無視|忘れ))",
            ),
        ),
        (
            "fetch and follow remote instructions",
            re(
                r"(?i)(?:\b(?:fetch|download|read|load|retrieve|get|visit|open|curl)\b[^.\n]{0,60}(?:https?://|this\s+page|the\s+page|that\s+page|the\s+url|the\s+link)[^.\n]{0,100}\b(?:follow|execute|obey|run|apply|paste)\b[^.\n]{0,40}\b(?:instructions|commands?|script|steps)\b|\b(?:follow|obey|execute)\s+(?:the\s+)?(?:instructions|commands)\s+(?:at|from|in)\s+https?://|(?:copy|paste)\b[^.\n]{0,60}\b(?:in|into)\s+(?:your\s+|the\s+|a\s+)?terminal|\bsuis\s+les\s+instructions\s+(?:de|sur|à)\s+https?://|\bsigue\s+las\s+instrucciones\s+(?:de|en)\s+https?://|\bbefolge\s+die\s+anweisungen\s+(?:von|unter|auf)\s+https?://|\bsiga\s+as\s+instruções\s+(?:de|em)\s+https?://|выполни\w*\s+(?:инструкции|команды)\s+(?:с|из|по\s+адресу)\s+https?://|(?:按照|遵循|执行)[^。\n]{0,10}https?://\S+[^。\n]{0,10}(?:指令|指示|说明)|https?://\S+[^。\n]{0,10}(?:の指示に従|の手順を実行))",
            ),
        ),
    ]
});

/// A placeholder where a real command would have a value (`curl ... |
/// bash`, `<url>`): the text shows a shape, it does not do it.
fn placeholder(text: &str) -> bool {
    // Go's `./...` (every package below) is an argument, not an ellipsis;
    // `https://...` is still a placeholder.
    let text = text.replace("//...", "<url>").replace("/...", "");
    text.contains("...") || text.contains('…') || text.contains("<url>") || text.contains("<URL>")
}

#[derive(Debug, Clone)]
struct Fact {
    file: String,
    line: usize,
    excerpt: String,
}

/// What one skill can do, gathered file by file.
#[derive(Debug, Default)]
pub(super) struct Skill {
    sources: Vec<Fact>,
    sinks: Vec<Fact>,
    remote_runs: Vec<Fact>,
    /// File name → where it was downloaded, or decoded (true).
    written: BTreeMap<String, (Fact, bool)>,
    runs: BTreeMap<String, Fact>,
    prose_downloads: Vec<(Fact, bool)>,
    families: BTreeMap<&'static str, Fact>,
    /// A sink in a file that names a request-capture or tunnel host.
    capture: Option<Fact>,
}

/// A test of the skill's own code (its fixtures name credential paths to
/// check that they are refused or redacted).
fn is_test(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    lower
        .split('/')
        .any(|p| matches!(p, "test" | "tests" | "__tests__" | "spec"))
        || lower.contains(".test.")
        || lower.contains(".spec.")
        || lower.contains("_test.")
}

fn base_name(path: &str) -> String {
    let path = path.trim_matches(|c| c == '"' || c == '\'' || c == '`');
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_owned()
}

impl Skill {
    /// Adds what `lines` (a file's text, or its unfolded text) says;
    /// `line_of` maps a 0-based index of `lines` to the file's line number.
    pub(super) fn observe(
        &mut self,
        rel: &str,
        lines: &Lines<'_>,
        prose: bool,
        line_of: &dyn Fn(usize) -> usize,
    ) {
        let text = lines.text;
        let fact = |at: usize| {
            let index = lines.index(at);
            Fact {
                file: rel.to_owned(),
                line: line_of(index),
                excerpt: excerpt(lines.line(index), 120),
            }
        };
        let teaching = |start: usize, end: usize| {
            prose
                && (is_teaching(lines, lines.index(start), start, end)
                    || placeholder(lines.line(lines.index(start))))
        };
        for m in SOURCE.find_iter(text) {
            if is_test(rel) {
                break;
            }
            // A read on the line, or (in code) on the lines around it.
            let index = lines.index(m.start());
            let reach = if prose { 0 } else { 3 };
            let near = (index.saturating_sub(reach)..(index + reach + 1).min(lines.starts.len()))
                .any(|i| READ.is_match(lines.line(i)));
            if near && !teaching(m.start(), m.end()) {
                self.sources.push(fact(m.start()));
                break;
            }
        }
        for (list, regex) in [
            (&mut self.sources, &*ENV_DUMP),
            (&mut self.sinks, &*SINK),
            (&mut self.remote_runs, &*REMOTE_RUN),
        ] {
            for m in regex.find_iter(text) {
                if !teaching(m.start(), m.end()) {
                    list.push(fact(m.start()));
                    break;
                }
            }
        }
        for (regex, decoded) in [(&*DOWNLOAD_TO, false), (&*DECODE_TO, true)] {
            for c in regex.captures_iter(text) {
                let whole = c.get(0).map_or(0..0, |m| m.range());
                if teaching(whole.start, whole.end) {
                    continue;
                }
                if let Some(name) = (1..c.len()).find_map(|i| c.get(i)) {
                    let name = base_name(name.as_str());
                    if name.len() > 1 && !name.starts_with('-') && name != "null" {
                        self.written
                            .entry(name)
                            .or_insert_with(|| (fact(whole.start), decoded));
                    }
                }
            }
        }
        if !self.written.is_empty() || text.len() < 1 << 20 {
            for c in RUNS.captures_iter(text) {
                let whole = c.get(0).map_or(0..0, |m| m.range());
                if let Some(name) = (1..c.len()).find_map(|i| c.get(i)) {
                    let name = base_name(name.as_str());
                    if name.len() > 1 && !teaching(whole.start, whole.end) {
                        self.runs.entry(name).or_insert_with(|| fact(whole.start));
                    }
                }
            }
        }
        if prose {
            for m in PROSE_DOWNLOAD.find_iter(text) {
                let index = lines.index(m.start());
                let near: String = (index.saturating_sub(1)..(index + 3).min(lines.starts.len()))
                    .map(|i| lines.line(i))
                    .collect::<Vec<_>>()
                    .join("\n");
                let sealed = PASSWORD.is_match(&near);
                if (sealed || PROSE_RUN.is_match(&near)) && !teaching(m.start(), m.end()) {
                    self.prose_downloads.push((fact(m.start()), sealed));
                }
            }
        }
        if self.capture.is_none()
            && let Some(m) = SINK.find(text)
            && CAPTURE_HOST.is_match(text)
        {
            self.capture = Some(fact(m.start()));
        }
        for (family, regex) in FAMILIES.iter() {
            if self.families.contains_key(family) {
                continue;
            }
            for m in regex.find_iter(text) {
                if !(prose || rel.ends_with(".md") || m.as_str().starts_with("--")) {
                    // Instructions live in prose; code only carries flags.
                    if !matches!(*family, "bypass permission prompts") {
                        continue;
                    }
                }
                if !teaching(m.start(), m.end())
                    && !negated(lines, m.start())
                    && !(prose && quoted(lines, m.start(), m.end()))
                {
                    self.families.insert(family, fact(m.start()));
                    break;
                }
            }
        }
    }

    /// The findings that come from facts together.
    pub(super) fn findings(&self, out: &mut Vec<Finding>) {
        let mut push = |id: &str, severity: Option<Severity>, fact: &Fact, what: String| {
            if let Some(rule) = rule(id) {
                out.push(Finding {
                    rule: rule.id.to_owned(),
                    severity: severity.unwrap_or(rule.severity),
                    file: fact.file.clone(),
                    line: fact.line,
                    excerpt: excerpt(&format!("{what}: {}", fact.excerpt), 160),
                    why: rule.why.to_owned(),
                });
            }
        };
        if let (Some(source), Some(sink)) = (self.sources.first(), self.sinks.first()) {
            push(
                "source-to-sink",
                None,
                source,
                format!("sent by {}:{}", sink.file, sink.line),
            );
        }
        if let Some(fact) = &self.capture
            && self.sources.is_empty()
        {
            push(
                "source-to-sink",
                None,
                fact,
                "sends data to a request-capture or tunnel host".into(),
            );
        }
        for fact in self.remote_runs.iter().take(3) {
            push(
                "download-then-run",
                None,
                fact,
                "fetches code and runs it".into(),
            );
        }
        let mut reported = BTreeSet::new();
        for (name, run) in &self.runs {
            if let Some((written, decoded)) = self.written.get(name)
                && reported.insert(name.clone())
            {
                let (severity, how) = if *decoded {
                    (Severity::Critical, "decoded")
                } else {
                    (Severity::High, "downloaded")
                };
                push(
                    "download-then-run",
                    Some(severity),
                    run,
                    format!("runs `{name}`, {how} at {}:{}", written.file, written.line),
                );
            }
        }
        for (fact, sealed) in self.prose_downloads.iter().take(3) {
            let severity = if *sealed {
                Severity::Critical
            } else {
                Severity::High
            };
            push(
                "download-then-run",
                Some(severity),
                fact,
                if *sealed {
                    "tells the agent to download a password-sealed archive and run it".into()
                } else {
                    "tells the agent to download a program and run it".into()
                },
            );
        }
        for (family, fact) in &self.families {
            push("agent-instruction", None, fact, (*family).to_owned());
        }
        if self.families.len() >= 2 {
            let names: Vec<&str> = self.families.keys().copied().collect();
            if let Some(fact) = self.families.values().next() {
                push("instruction-families", None, fact, names.join(" + "));
            }
        }
    }
}
