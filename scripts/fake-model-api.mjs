// A loopback stand-in for a model API, so that a real agent (Claude Code)
// can run headless with no account and no network: every request is
// written to LOGDIR as JSON, and each turn is answered with a fixed reply.
// Used by scripts/interop-agents.sh (docs/design.md#proof-with-real-agents).
//
//   node scripts/fake-model-api.mjs PORT LOGDIR
//
// Anthropic Messages API (POST /v1/messages, streamed or not): when the
// file LOGDIR/tool-use.json exists and the conversation holds no tool
// result yet, the turn answers with that tool call ({"name", "input"}),
// so the agent runs one of its tools (the Skill tool loading a skill);
// every other turn answers "ok".
//
// Gemini API (POST /v1beta/models/MODEL:generateContent, or
// :streamGenerateContent?alt=sse): the same, the tool call as a
// functionCall and the result looked for as a functionResponse.
//
// OpenAI Responses API (POST /v1/responses, streamed): "ok", for Codex.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const [, , port, logdir] = process.argv;
if (!port || !logdir) {
  console.error('usage: node fake-model-api.mjs PORT LOGDIR');
  process.exit(2);
}
let seen = 0;

function toolUseWanted(answered) {
  const file = path.join(logdir, 'tool-use.json');
  if (answered || !fs.existsSync(file)) return null;
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function toolUseFor(request) {
  return toolUseWanted(
    (request.messages || []).some(
      (m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result'),
    ),
  );
}

// A Responses API turn (streamed): one assistant message saying "ok".
function responses(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const id = `resp_fake_${seen}`;
  send('response.created', { response: { id } });
  send('response.output_item.done', {
    output_index: 0,
    item: { type: 'message', role: 'assistant', id: `msg_fake_${seen}`, content: [{ type: 'output_text', text: 'ok' }] },
  });
  send('response.completed', {
    response: { id, usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } },
  });
  res.end();
}

// The smallest value a JSON schema accepts (a request that asks for JSON,
// such as Gemini CLI's model router, gets JSON).
function fromSchema(schema) {
  switch (String(schema?.type || 'string').toLowerCase()) {
    case 'object':
      return Object.fromEntries((schema.required || []).map((k) => [k, fromSchema(schema.properties?.[k])]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      return schema?.enum?.[0] ?? 'ok';
  }
}

// A Gemini turn: one candidate with a text or a functionCall part.
function gemini(res, url, request) {
  const tool = toolUseWanted(
    (request.contents || []).some((c) => (c.parts || []).some((p) => p.functionResponse)),
  );
  const schema = request.generationConfig?.responseJsonSchema || request.generationConfig?.responseSchema;
  const text = schema ? JSON.stringify(fromSchema(schema)) : 'ok';
  const part = tool && !schema ? { functionCall: { name: tool.name, args: tool.input } } : { text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'fake',
  };
  if (url.includes(':streamGenerateContent')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    return res.end();
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  return res.end(JSON.stringify(answer));
}

function reply(request) {
  const tool = toolUseFor(request);
  const block = tool
    ? { type: 'tool_use', id: 'toolu_fake_1', name: tool.name, input: tool.input }
    : { type: 'text', text: 'ok' };
  return {
    message: {
      id: `msg_fake_${seen}`,
      type: 'message',
      role: 'assistant',
      model: request.model || 'fake',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    block,
    stop: tool ? 'tool_use' : 'end_turn',
  };
}

function stream(res, { message, block, stop }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message });
  if (block.type === 'tool_use') {
    send('content_block_start', { index: 0, content_block: { ...block, input: {} } });
    send('content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
    });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: block.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
  send('message_stop', {});
  res.end();
}

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen += 1;
      const record = { method: req.method, url: req.url, body };
      fs.writeFileSync(path.join(logdir, `request-${String(seen).padStart(3, '0')}.json`), JSON.stringify(record));
      const json = (code, value) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      let request = {};
      try {
        request = JSON.parse(body || '{}');
      } catch {
        return json(400, { error: { message: 'the request body is not JSON' } });
      }
      if (req.method === 'POST' && /^\/v1(beta)?\/models\/[^/:]+:(stream)?[gG]enerateContent/.test(req.url)) {
        return gemini(res, req.url, request);
      }
      if (req.method === 'POST' && req.url.startsWith('/v1/responses')) return responses(res);
      if (req.method !== 'POST' || !req.url.startsWith('/v1/messages')) return json(404, {});
      if (req.url.includes('count_tokens')) return json(200, { input_tokens: 1 });
      const turn = reply(request);
      if (request.stream) return stream(res, turn);
      return json(200, { ...turn.message, content: [turn.block], stop_reason: turn.stop });
    });
  })
  .listen(Number(port), '127.0.0.1');
