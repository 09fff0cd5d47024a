/**
 * The lists a request body holds, bounded before it is validated or parsed
 * into a neutral request (`limits.*`): validation, the dialect's parse, the
 * plan, the wire body and a dry run's report each take a step per message,
 * content part, token id or tool, so their count bounds what one request costs.
 * Every dialect's fields are looked for, whichever dialect the body is for:
 * a field a dialect does not have is refused by its validator next anyway.
 */
import type { ProxyLimits } from '../../config/settings.js';
import { limitExceeded } from '../../errors/catalogue.js';
import { isRecord } from '../../model/is-record.js';

export type ArrayLimits = Pick<ProxyLimits, 'promptBatch' | 'promptTokens' | 'messages' | 'contentParts' | 'tools' | 'stopSequences'>;

/** Throws a 400 naming the caller's field whose list passes its limit. */
export function checkArrayLimits(body: unknown, limits: ArrayLimits): void {
  if (!isRecord(body)) return;
  checkPrompt(body.prompt, limits);
  let parts = countParts(body.system, 0, limits, () => 'system');
  // Gemini's, by its JSON or its proto names (the body is not normalized yet).
  for (const field of ['systemInstruction', 'system_instruction'] as const) {
    const system = body[field];
    if (isRecord(system)) parts = countParts(system.parts, parts, limits, () => `${field}.parts`);
  }
  for (const field of ['messages', 'input', 'contents'] as const) {
    const list = body[field];
    if (!Array.isArray(list)) continue;
    const noun = field === 'input' ? 'items' : 'messages';
    atMost(list.length, { field, noun, bound: limits.messages, setting: 'messages' });
    for (let i = 0; i < list.length; i++) {
      const message: unknown = list[i];
      if (!isRecord(message)) continue;
      // A message's content, a Responses function call's output, and an Anthropic tool result's own content.
      for (const inner of ['content', 'output', 'parts'] as const) {
        const blocks = message[inner];
        if (!Array.isArray(blocks)) continue;
        parts = countParts(blocks, parts, limits, () => `${field}[${i}].${inner}`);
        for (let j = 0; j < blocks.length; j++) {
          const block: unknown = blocks[j];
          if (isRecord(block)) parts = countParts(block.content, parts, limits, () => `${field}[${i}].${inner}[${j}].content`);
        }
      }
    }
  }
  for (const field of ['tools', 'functions']) {
    const list = body[field];
    if (!Array.isArray(list)) continue;
    atMost(list.length, { field, noun: 'tools', bound: limits.tools, setting: 'tools' });
    // Gemini's tools are lists of functions: the functions are what count.
    let functions = 0;
    for (const tool of list) {
      if (!isRecord(tool)) continue;
      for (const declarations of [tool.functionDeclarations, tool.function_declarations])
        if (Array.isArray(declarations)) functions += declarations.length;
    }
    atMost(functions, { field, noun: 'function declarations', bound: limits.tools, setting: 'tools' });
  }
  const config = isRecord(body.generationConfig) ? body.generationConfig : isRecord(body.generation_config) ? body.generation_config : {};
  const stops: [string, unknown][] = [
    ['stop', body.stop],
    ['stop_sequences', body.stop_sequences],
    ['generationConfig.stopSequences', config.stopSequences ?? config.stop_sequences],
  ];
  for (const [field, list] of stops)
    if (Array.isArray(list)) atMost(list.length, { field, noun: 'stop sequences', bound: limits.stopSequences, setting: 'stopSequences' });
}

/** A prompt of token ids, or a batch of prompts (strings or token-id lists): their count and their token ids together. */
function checkPrompt(prompt: unknown, limits: ArrayLimits): void {
  if (!Array.isArray(prompt)) return;
  if (typeof prompt[0] === 'number') {
    atMost(prompt.length, { field: 'prompt', noun: 'token ids', bound: limits.promptTokens, setting: 'promptTokens' });
    return;
  }
  atMost(prompt.length, { field: 'prompt', noun: 'prompts', bound: limits.promptBatch, setting: 'promptBatch' });
  let tokens = 0;
  for (const item of prompt) if (Array.isArray(item)) tokens += item.length;
  atMost(tokens, { field: 'prompt', noun: 'token ids', bound: limits.promptTokens, setting: 'promptTokens' });
}

/** The content parts counted so far, with `blocks`'s added (a string content has none); past the limit, a 400 naming the field. */
function countParts(blocks: unknown, counted: number, limits: ArrayLimits, field: () => string): number {
  if (!Array.isArray(blocks)) return counted;
  const total = counted + blocks.length;
  if (total > limits.contentParts) {
    throw limitExceeded(
      field(),
      `the request holds more than ${limits.contentParts} content parts in all its messages (past the bound at ${field()})`,
      'limits.contentParts',
    );
  }
  return total;
}

function atMost(
  count: number,
  { field, noun, bound, setting }: { field: string; noun: string; bound: number; setting: keyof ArrayLimits },
): void {
  if (count > bound)
    throw limitExceeded(field, `${field} holds ${count} ${noun}; at most ${bound} are taken in one request`, `limits.${setting}`);
}
