/**
 * What the Responses end-to-end tests share: upstream answers in chat and
 * completions wire (plain and streamed), a Hermes tool call in generated text,
 * and the proxy on the bundled llama.cpp worker.
 */
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';

const created = 1700000000;

export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const usage = (prompt: number, completion: number): WireUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

/** A chat completion with one choice: `message` is the assistant message as the upstream sends it. */
export function chatAnswer(message: Record<string, unknown>, finish = 'stop', tokens: WireUsage = usage(9, 3)): unknown {
  return {
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created,
    model: 'up-model',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, logprobs: null, finish_reason: finish }],
    usage: tokens,
  };
}

/** One chat chunk frame. */
export function chatChunk(delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-xyz', object: 'chat.completion.chunk', created, model: 'up-model', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
}

/** The usage chunk, then [DONE]: how an OpenAI chat stream asked for usage ends. */
export function chatStreamEnd(tokens: WireUsage = usage(9, 2)): string[] {
  return [
    `data: ${JSON.stringify({ id: 'chatcmpl-xyz', object: 'chat.completion.chunk', created, model: 'up-model', choices: [], usage: tokens })}\n\n`,
    'data: [DONE]\n\n',
  ];
}

/** A whole streamed chat answer: the role, `pieces` of content, a finish, usage. */
export function chatTextStream(pieces: string[], finish = 'stop'): string[] {
  return [
    chatChunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chatChunk({ content })),
    chatChunk({}, finish),
    ...chatStreamEnd(),
  ];
}

export function completionAnswer(text: string, finish = 'stop', tokens: WireUsage = usage(30, 12)): unknown {
  return {
    id: 'cmpl-abc',
    object: 'text_completion',
    created,
    model: 'up-model',
    choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
    usage: tokens,
  };
}

export function completionChunk(text: string, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'cmpl-xyz', object: 'text_completion', created, model: 'up-model', choices: [{ index: 0, text, logprobs: null, finish_reason: finish }] })}\n\n`;
}

/** A whole streamed completion: `pieces` of text, a finish, usage (Fireworks sends it by default), [DONE]. */
export function completionStream(pieces: string[], finish = 'stop', tokens: WireUsage = usage(30, pieces.length)): string[] {
  return [
    ...pieces.map((text) => completionChunk(text)),
    completionChunk('', finish),
    `data: ${JSON.stringify({ id: 'cmpl-xyz', object: 'text_completion', created, model: 'up-model', choices: [], usage: tokens })}\n\n`,
    'data: [DONE]\n\n',
  ];
}

/** A tool call as a Hermes-style model writes it (the proxy's default tool call format on a completions backend). */
export function hermesToolCall(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
}

export const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};

/** The upstream's last request body. */
export function lastBody<T = Record<string, unknown>>(requests: { body: unknown }[]): T {
  return requests[requests.length - 1].body as T;
}

/** The proxy on the bundled llama.cpp worker, one sequence and one thread (the machine is shared). */
export async function startWorkerProxy(modelPath: string): Promise<RunningServer> {
  const config = loadConfig({
    backends: { local: { kind: 'llama-cpp', model: modelPath, contextSize: 2048, parallel: 1, threads: 1 } },
    routes: [{ model: '*', backend: 'local' }],
  });
  const proxy = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
  await proxy.proxy.ready;
  return proxy;
}
