/**
 * Renders chat messages into one prompt string with a Jinja chat template, the
 * way Hugging Face tokenizers do (`messages`, `tools`, `add_generation_prompt`,
 * `bos_token`, `eos_token`). ChatML is the default.
 *
 * A `developer` message (what OpenAI's clients send instead of `system` for
 * reasoning models) is the system turn for a template that has no developer
 * role of its own, as llama.cpp renders it; a template that names the role
 * (`'developer'` in its source, e.g. GPT-OSS's) gets it as it came.
 */
import { Template } from '@huggingface/jinja';
import { invalidRequest } from '../errors/proxy-error.js';
import type { ContentPart, Message, ToolDefinition } from './request.js';
import { renderChatml, type ChatmlMessage } from './render-chatml.js';

/** ChatML; tools are described Hermes-style in the system turn (`<tool_call>{json}</tool_call>` replies). */
export const chatmlTemplate = `{%- if tools %}<|im_start|>system
{% if messages[0].role == 'system' %}{{ messages[0].content }}

{% endif %}# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
{% endif %}
{%- for message in messages %}
{%- if not (tools and loop.first and message.role == 'system') %}
{%- if message.role == 'tool' %}<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{% else %}<|im_start|>{{ message.role }}
{% if message.reasoning_content %}<think>
{{ message.reasoning_content }}
</think>
{% endif %}{% if message.content %}{{ message.content }}{% endif %}
{%- if message.tool_calls %}{% for call in message.tool_calls %}
<tool_call>
{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}
</tool_call>{% endfor %}{% endif %}<|im_end|>
{% endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

const compiled = new Map<string, Template>();

/** Compiles once per template source (templates come from config or GGUF metadata). */
function compile(source: string): Template {
  let template = compiled.get(source);
  if (!template) {
    template = new Template(source);
    compiled.set(source, template);
  }
  return template;
}

export interface RenderOptions {
  /** Jinja source; `chatml` or undefined means the built-in ChatML. */
  template?: string;
  tools?: ToolDefinition[];
  bosToken?: string;
  eosToken?: string;
  addGenerationPrompt?: boolean;
  /** Extra variables some templates read (e.g. `enable_thinking`). */
  variables?: Record<string, unknown>;
}

export function renderChatTemplate(messages: readonly Message[], options: RenderOptions = {}): string {
  const source = !options.template || options.template === 'chatml' ? chatmlTemplate : options.template;
  const developerRole = developerRoleOf(source);
  const context = {
    messages: messages.map((message, index) => templateMessage(message, index, developerRole)),
    tools: options.tools?.map((tool) => ({ type: 'function', function: tool })),
    add_generation_prompt: options.addGenerationPrompt ?? true,
    bos_token: options.bosToken ?? '',
    eos_token: options.eosToken ?? '',
    ...options.variables,
  };
  // ChatML written out (render-chatml.ts), unless a variable stands for one it reads.
  if (source === chatmlTemplate && !Object.keys(options.variables ?? {}).some((key) => CHATML_READS.has(key))) return renderChatml(context);
  return compile(source).render(context);
}

const CHATML_READS = new Set(['messages', 'tools', 'add_generation_prompt']);

const developerRoles = new Map<string, boolean>();

/** hasDeveloperRole, once per template source: a regular expression over the whole template is too much for every request. */
function developerRoleOf(source: string): boolean {
  let named = developerRoles.get(source);
  if (named === undefined) {
    named = hasDeveloperRole(source);
    developerRoles.set(source, named);
  }
  return named;
}

/**
 * Whether a template renders a `developer` role of its own: it names the role
 * in a string literal (`message.role == 'developer'`, GPT-OSS's Harmony
 * template). ChatML and most model templates do not, and would render an
 * unknown role as a turn the model never saw in training, or skip it.
 * @example hasDeveloperRole(chatmlTemplate) // false
 */
export function hasDeveloperRole(source: string): boolean {
  return /(['"])developer\1/.test(source);
}

type TemplateMessage = ChatmlMessage & {
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: unknown } }[];
};

/** The message shape chat templates expect (OpenAI's, with arguments as objects). */
function templateMessage(message: Message, index: number, developerRole: boolean): TemplateMessage {
  const role = message.role === 'developer' && !developerRole ? 'system' : message.role;
  const out: TemplateMessage = { role, content: textOf(message.content, index) };
  if (message.name) out.name = message.name;
  if (message.toolCallId) out.tool_call_id = message.toolCallId;
  if (message.reasoning) out.reasoning_content = message.reasoning;
  if (message.toolCalls?.length) {
    out.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: parseArguments(call.arguments) },
    }));
  }
  return out;
}

function textOf(content: Message['content'], index: number): string {
  if (content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part: ContentPart, partIndex) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'refusal') return part.refusal;
      throw invalidRequest(
        `messages[${index}].content[${partIndex}]`,
        `${part.type === 'audio' || part.type === 'image' ? 'An' : 'A'} ${part.type} content part is not supported by this backend: it cannot be rendered into a text prompt.`,
        'unsupported_parameter',
      );
    })
    .join('');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
