/**
 * The built-in ChatML template (render-chat-template.ts) written out in
 * TypeScript: the text its Jinja source renders to, without an interpreter
 * that builds an environment per render and per loop turn (6% of a chat
 * request's CPU when it is translated for a completions-only backend). A
 * property test renders both ways and compares.
 */

/** What the ChatML template reads; the same values its Jinja source gets. */
export interface ChatmlContext {
  messages: readonly ChatmlMessage[];
  tools?: readonly unknown[];
  add_generation_prompt: boolean;
}

export interface ChatmlMessage {
  role: string;
  content: string;
  reasoning_content?: string;
  tool_calls?: readonly { function: { name: string; arguments: unknown } }[];
}

const TOOLS_HEAD =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n';
const TOOLS_TAIL =
  '</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

export function renderChatml({ messages, tools, add_generation_prompt: addGenerationPrompt }: ChatmlContext): string {
  const withTools = tools !== undefined && tools.length > 0;
  let out = '';
  if (withTools) {
    out += '<|im_start|>system\n';
    if (messages[0]?.role === 'system') out += `${messages[0].content}\n\n`;
    out += TOOLS_HEAD;
    for (const tool of tools) out += `${tojson(tool)}\n`;
    out += TOOLS_TAIL;
  }
  messages.forEach((message, index) => {
    if (withTools && index === 0 && message.role === 'system') return; // in the tools' system turn
    if (message.role === 'tool') {
      out += `<|im_start|>user\n<tool_response>\n${message.content}\n</tool_response><|im_end|>\n`;
      return;
    }
    out += `<|im_start|>${message.role}\n`;
    if (message.reasoning_content) out += `<think>\n${message.reasoning_content}\n</think>\n`;
    out += message.content;
    for (const call of message.tool_calls ?? [])
      out += `<tool_call>\n{"name": "${call.function.name}", "arguments": ${tojson(call.function.arguments)}}\n</tool_call>`;
    out += '<|im_end|>\n';
  });
  if (addGenerationPrompt) out += '<|im_start|>assistant\n';
  return out;
}

/** Jinja's `tojson` as @huggingface/jinja writes it: Python's separators, undefined as null. */
function tojson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(tojson).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${tojson(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}
