//! Talking to a git remote with gitoxide: resolve a ref to a commit, and make
//! sure a given commit is in the cache repository.
//!
//! Only the refs needed are fetched (`refs/tags/<r>` and `refs/heads/<r>`,
//! or the remote's `HEAD`), mirrored under the same names in the cache, with
//! forced updates so a moved tag or rewritten branch is seen as it is now.
//! No hooks run (gitoxide's fetch has none), nothing is checked out, and the
//! received pack is verified object by object before it is kept.

use std::sync::atomic::AtomicBool;

use gix::ObjectId;
use gix::protocol::transport::client::blocking_io;
use gix::remote::Direction;
use gix::remote::fetch::Tags;
use gix::url::Scheme;

use super::GitError;
use super::cache::CachedRepo;
use super::http::GitHttp;
use super::spec::{is_abbreviated_sha, is_full_sha};

/// The cache ref that records the remote's HEAD (its default branch).
const REMOTE_HEAD: &str = "refs/skillpm/remote-HEAD";
/// Every branch and tag: the fallback when a commit cannot be asked for by id.
const ALL_REFS: &[&str] = &["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];

/// Resolves `reference` (None: the remote's HEAD) to a commit id, fetching
/// what is needed unless `offline`.
pub(crate) fn resolve_ref(
    cached: &CachedRepo,
    url: &str,
    reference: Option<&str>,
    offline: bool,
    allow_http: bool,
) -> Result<ObjectId, GitError> {
    if let Some(sha) = reference.filter(|r| is_full_sha(r)) {
        let id = parse_id(sha)?;
        ensure_commit(cached, url, id, offline, allow_http)?;
        return peel_to_commit(cached, url, id);
    }
    // The refs a name may mean, in git's own precedence (tags before branches).
    let candidates: Vec<String> = match reference {
        None => vec![REMOTE_HEAD.to_owned()],
        Some(r) if r.starts_with("refs/") => vec![r.to_owned()],
        Some(r) => vec![format!("refs/tags/{r}"), format!("refs/heads/{r}")],
    };
    let shown = reference.unwrap_or("HEAD");
    let found = if offline {
        candidates.iter().find_map(|name| local_ref(cached, name))
    } else {
        let specs: Vec<String> = match reference {
            None => vec![format!("+HEAD:{REMOTE_HEAD}")],
            Some(_) => candidates.iter().map(|c| format!("+{c}:{c}")).collect(),
        };
        match fetch(cached, url, &specs, allow_http)? {
            // Only refs the remote has now count: a stale cache ref of a
            // branch deleted upstream must not answer.
            Fetched::Refs(matched) => candidates
                .iter()
                .filter(|c| matched.contains(c))
                .find_map(|name| local_ref(cached, name)),
            Fetched::NoMatch => None,
        }
    };
    if let Some(id) = found {
        return peel_to_commit(cached, url, id);
    }
    // An abbreviated commit id: look for it among everything the remote has.
    if let Some(prefix) = reference.filter(|r| is_abbreviated_sha(r)) {
        if !offline {
            fetch(cached, url, ALL_REFS, allow_http)?;
        }
        if let Some(id) = find_by_prefix(cached, prefix) {
            return peel_to_commit(cached, url, id);
        }
    }
    if offline {
        return Err(GitError::Offline {
            url: url.to_owned(),
            what: format!("ref `{shown}`"),
        });
    }
    Err(GitError::unknown_ref(url, shown))
}

/// Makes sure commit `id` is in the cache repository: asks the remote for it
/// by id, and when the server refuses that (older servers allow only
/// advertised tips), fetches every branch and tag.
pub(crate) fn ensure_commit(
    cached: &CachedRepo,
    url: &str,
    id: ObjectId,
    offline: bool,
    allow_http: bool,
) -> Result<(), GitError> {
    if cached.repo.has_object(id) {
        return Ok(());
    }
    if offline {
        return Err(GitError::Offline {
            url: url.to_owned(),
            what: format!("commit {id}"),
        });
    }
    // A refusal to serve an unadvertised id is not final: the full fetch
    // below decides, and only its failure means the server was unreachable.
    let _ = fetch(cached, url, &[id.to_string()], allow_http);
    if cached.repo.has_object(id) {
        return Ok(());
    }
    fetch(cached, url, ALL_REFS, allow_http)?;
    if cached.repo.has_object(id) {
        return Ok(());
    }
    Err(GitError::CommitNotFound {
        url: url.to_owned(),
        commit: id.to_string(),
    })
}

/// What a fetch matched on the remote.
enum Fetched {
    /// The local names of the refs the remote has (commits were fetched).
    Refs(Vec<String>),
    /// None of the refspecs matched a remote ref.
    NoMatch,
}

/// Fetches `specs` from `url` into the cache repository. Over http(s) the
/// transport is skillpm's one client ([`super::http`]): the network policy
/// holds for git as for every other request (docs/network.md#git-over-https).
fn fetch(
    cached: &CachedRepo,
    url: &str,
    specs: &[impl AsRef<str>],
    allow_http: bool,
) -> Result<Fetched, GitError> {
    let network = |e: &(dyn std::error::Error + 'static)| GitError::network(url, e);
    let repo = &cached.repo;
    let remote = repo
        .remote_at(url)
        .map_err(|e| network(&e))?
        .with_fetch_tags(Tags::None)
        .with_refspecs(specs.iter().map(AsRef::as_ref), Direction::Fetch)
        .map_err(|e| network(&e))?;
    let (remote_url, version) = remote
        .sanitized_url_and_version(Direction::Fetch)
        .map_err(|e| network(&e))?;
    if matches!(remote_url.scheme, Scheme::Http | Scheme::Https) {
        let (client, refusal) = GitHttp::new(crate::net::Http::shared(), allow_http);
        let transport = blocking_io::http::Transport::new_http(client, remote_url, version, false);
        let result = receive(remote.to_connection_with_transport(transport), url);
        // What the policy refused is reported as itself, not as gix's
        // account of a failed fetch.
        let refused = refusal.lock().ok().and_then(|mut r| r.take());
        return match (result, refused) {
            (Err(_), Some(crate::net::SendError::PlainHttp(e))) => Err(GitError::PlainHttp(e)),
            (Err(_), Some(other)) => Err(network(&other)),
            (result, _) => result,
        };
    }
    let connection = remote.connect(Direction::Fetch).map_err(|e| network(&e))?;
    receive(connection, url)
}

/// Negotiates and receives the pack over `connection`.
fn receive<T: blocking_io::Transport>(
    connection: gix::remote::Connection<'_, '_, '_, T>,
    url: &str,
) -> Result<Fetched, GitError> {
    let network = |e: &(dyn std::error::Error + 'static)| GitError::network(url, e);
    let prepared = connection
        .prepare_fetch(gix::progress::Discard, Default::default())
        .map_err(|e| network(&e))?;
    if prepared.ref_map().is_missing_required_mapping() {
        return Ok(Fetched::NoMatch);
    }
    let interrupt = AtomicBool::new(false);
    let outcome = prepared
        .receive(gix::progress::Discard, &interrupt)
        .map_err(|e| network(&e))?;
    let matched = outcome
        .ref_map
        .mappings
        .iter()
        .filter_map(|m| m.local.as_ref().map(|l| l.to_string()))
        .collect();
    Ok(Fetched::Refs(matched))
}

/// Whether `ancestor` is `tip` or one of its ancestors, walking the cached
/// clone's history from `tip` (every commit a fetched ref reaches is there).
pub(crate) fn reaches(cached: &CachedRepo, tip: ObjectId, ancestor: ObjectId) -> bool {
    if tip == ancestor {
        return true;
    }
    let Ok(walk) = cached.repo.rev_walk([tip]).all() else {
        return false;
    };
    walk.map_while(Result::ok).any(|info| info.id == ancestor)
}

fn local_ref(cached: &CachedRepo, name: &str) -> Option<ObjectId> {
    let mut reference = cached.repo.try_find_reference(name).ok()??;
    reference.peel_to_id().ok().map(|id| id.detach())
}

fn find_by_prefix(cached: &CachedRepo, prefix: &str) -> Option<ObjectId> {
    let prefix = gix::hash::Prefix::from_hex(prefix).ok()?;
    match cached.repo.objects.lookup_prefix(prefix, None) {
        Ok(Some(Ok(id))) => Some(id),
        _ => None,
    }
}

/// Follows annotated tags to the commit they name; anything that is not
/// (or does not lead to) a commit is refused.
pub(crate) fn peel_to_commit(
    cached: &CachedRepo,
    url: &str,
    id: ObjectId,
) -> Result<ObjectId, GitError> {
    let object = cached.repo.find_object(id).map_err(|e| GitError::Cache {
        path: cached.path.clone(),
        message: format!("cannot read object {id}: {e:#}"),
    })?;
    let commit = object
        .peel_to_kind(gix::object::Kind::Commit)
        .map_err(|_| GitError::unknown_ref(url, &format!("{id} (not a commit)")))?;
    Ok(commit.id)
}

pub(crate) fn parse_id(hex: &str) -> Result<ObjectId, GitError> {
    ObjectId::from_hex(hex.to_ascii_lowercase().as_bytes())
        .map_err(|e| GitError::spec(hex, format!("not a commit id: {e}")))
}
