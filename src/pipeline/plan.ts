/**
 * The plan step: the one place that decides how a neutral request reaches its
 * backend. It checks the request against the backend's capabilities (400 or,
 * with `dropUnsupported`, a warning), and wraps the adapter in the emulations
 * the backend needs: chat over completions, completions over chat, prompt
 * batches and `n` fanned out.
 */
import { invalidRequest } from '../errors/proxy-error.js';
import type { NeutralRequest } from '../model/request.js';
import { chatOverText } from './emulate/chat-over-text.js';
import type { Engine } from './emulate/engine.js';
import { fanOutChoices } from './emulate/fan-out-choices.js';
import { fanOutPrompts, isPromptBatch } from './emulate/fan-out-prompts.js';
import { textOverChat } from './emulate/text-over-chat.js';
import { featureUses, paramOf } from './required-features.js';
import type { Backend, RouteMatch } from './route-table.js';

export interface Plan {
  engine: Engine;
  /** The request as the engine receives it (upstream model name set). */
  request: NeutralRequest;
}

export function planRequest(request: NeutralRequest, { backend, upstreamModel }: RouteMatch): Plan {
  const { adapter, settings, name } = backend;
  const capabilities = adapter.capabilities;
  const speaksCaller = capabilities.speaks.includes(request.endpoint === 'chat' ? 'chat' : 'completions');
  const chatOverCompletions = request.endpoint === 'chat' && !speaksCaller;
  const completionsOverChat = request.endpoint === 'text' && !speaksCaller;

  const refuse = (param: string, why: string) => {
    if (!settings.dropUnsupported) throw invalidRequest(param, `${why} (backend "${name}", kind ${settings.kind}).`, 'unsupported_parameter');
    request.warnings.push(`${param} dropped: ${why}`);
  };

  for (const use of featureUses) {
    if (!use.present(request) || capabilities.features.has(use.feature)) continue;
    // Tools over a completions backend are rendered into the prompt and parsed back.
    if (use.feature === 'tools' && chatOverCompletions) continue;
    refuse(paramOf(request, use), `${paramOf(request, use)} is not supported by this backend`);
    if (settings.dropUnsupported) use.drop(request);
  }
  for (const field of Object.keys(request.passthrough)) {
    if (capabilities.passthroughFields.has(field)) continue;
    refuse(field, `${field} is not supported by this backend`);
    delete request.passthrough[field];
  }
  if (request.logprobs && request.logprobs.top > capabilities.maxTopLogprobs) {
    const param = request.origins['logprobs.top'] ?? (request.logprobs.shape === 'chat' ? 'top_logprobs' : 'logprobs');
    throw invalidRequest(param, `${param} must be at most ${capabilities.maxTopLogprobs} for backend "${name}" (got ${request.logprobs.top}).`);
  }
  const effort = request.reasoning?.effort;
  if (effort !== undefined && !capabilities.efforts.has(effort)) {
    refuse(request.origins['reasoning.effort'] ?? 'reasoning_effort', `reasoning effort "${effort}" is not accepted (accepted: ${[...capabilities.efforts].join(', ') || 'none'})`);
    if (settings.dropUnsupported && request.reasoning) delete request.reasoning.effort;
  }

  request.model = upstreamModel;
  return { engine: composeEngine(backend, request, { chatOverCompletions, completionsOverChat }), request };
}

function composeEngine({ adapter, settings }: Backend, request: NeutralRequest, mode: { chatOverCompletions: boolean; completionsOverChat: boolean }): Engine {
  const { capabilities } = adapter;
  let engine: Engine = adapter;
  if (request.choices > 1 && !capabilities.nativeChoices) engine = fanOutChoices(engine);
  if (mode.completionsOverChat) engine = textOverChat(engine, settings.thinkTags);
  if (mode.chatOverCompletions) {
    engine = chatOverText(engine, {
      ...(settings.chatTemplate ? { template: settings.chatTemplate } : {}),
      ...(settings.thinkTags ? { thinkTags: settings.thinkTags } : {}),
      ...(settings.toolCallFormat ? { toolCallFormat: settings.toolCallFormat } : {}),
    });
  }
  const batchNeedsSplit = mode.completionsOverChat || !capabilities.features.has('promptBatch') || !capabilities.nativeChoices;
  if (isPromptBatch(request.prompt) && batchNeedsSplit) engine = fanOutPrompts(engine);
  return engine;
}
