/**
 * Completions on a chat-only backend: the prompt becomes one user message,
 * with `images` as image parts (batches are split before this, by fan-out-prompts). Reasoning a chat
 * backend returns separately is put back into the text inside think tags,
 * as a raw completion would show it.
 */
import type { ContentPart, NeutralRequest } from '../../../model/request.js';
import type { ResultChoice } from '../../../model/result.js';
import type { StreamEvent, StreamEventOf } from '../../../model/stream-event.js';
import { mapEvents } from '../../../streaming/stream-batches.js';
import type { Engine } from './engine.js';
import { defaultThinkTags, type ThinkTags } from './split-reasoning.js';

export function textOverChat(inner: Engine, tags: ThinkTags = defaultThinkTags): Engine {
  return {
    async complete(request, context) {
      const result = await inner.complete(toChatRequest(request), context);
      return { ...result, choices: result.choices.map((choice) => withReasoningInText(choice, tags)) };
    },
    stream(request, context) {
      const thinking = new Set<number>();
      return mapEvents(
        () => inner.stream(toChatRequest(request), context),
        (event, out) => {
          if (event.type === 'reasoning-delta') {
            out.push(reasoningAsText(event, thinking, tags));
            return;
          }
          // The think block closes before what follows it.
          if (
            (event.type === 'text-delta' || event.type === 'choice-end' || event.type === 'tool-call-delta') &&
            thinking.delete(event.choice)
          ) {
            out.push({ type: 'text-delta', choice: event.choice, delta: tags.close });
          }
          out.push(event);
        },
      );
    },
  };
}

export function toChatRequest(request: NeutralRequest): NeutralRequest {
  const { prompt, images, ...rest } = request;
  const text = typeof prompt === 'string' ? prompt : '';
  return { ...rest, endpoint: 'chat', messages: [{ role: 'user', content: images?.length ? withImages(text, images.flat()) : text }] };
}

/**
 * Fireworks' `images` fill the prompt's `<image>` placeholders in order; in chat
 * they become image parts at those places (any beyond the placeholders follow the text).
 */
function withImages(text: string, images: string[]): ContentPart[] {
  const parts: ContentPart[] = [];
  const pieces = text.split('<image>');
  pieces.forEach((piece, i) => {
    if (piece) parts.push({ type: 'text', text: piece });
    if (i < pieces.length - 1 && i < images.length) parts.push({ type: 'image', url: images[i] });
  });
  for (const url of images.slice(pieces.length - 1)) parts.push({ type: 'image', url });
  return parts;
}

function withReasoningInText(choice: ResultChoice, tags: ThinkTags): ResultChoice {
  if (!choice.reasoning) return choice;
  const { reasoning, ...rest } = choice;
  return { ...rest, text: `${tags.open}${reasoning}${tags.close}${choice.text}` };
}

/** Reasoning as text inside the think tags, the first piece opening them. */
function reasoningAsText(event: StreamEventOf<'reasoning-delta'>, thinking: Set<number>, tags: ThinkTags): StreamEvent {
  const open = thinking.has(event.choice) ? '' : tags.open;
  thinking.add(event.choice);
  return { ...event, type: 'text-delta', delta: open + event.delta };
}
