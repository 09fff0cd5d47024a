/**
 * What the inspector page asks besides the translated endpoints: the backend
 * kinds (`GET /inspector/kinds`), and what a default backend of one kind would
 * get for a body (`POST /inspector/translate?to=KIND`), as `dialect-proxy
 * translate --to KIND` answers it: the real plan and wire builders, offline,
 * nothing sent, no model loaded. So the page answers "what happens on OpenAI?"
 * on a proxy that has no OpenAI backend configured.
 *
 * The translation is keyed like the translated endpoints and reads the body
 * within the same limits; its answer is the dry run's (`x-dialect-dry-run`):
 * the report, or the caller's error with the report beside it as `dry_run`.
 * The list of kinds holds no secret and is open, like the page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BACKEND_KINDS, findKind } from '../../adapters/registry.js';
import type { SpokenEndpoint } from '../backend/adapter.js';
import { createTranslator, endpointNamed, speaksNamed, type Translator } from '../commands/translate.js';
import type { ProxyConfig } from '../config/settings.js';
import { chatErrorBody } from '../dialects/openai-chat/error-body.js';
import { invalidRequest, toProxyError } from '../errors/proxy-error.js';
import { sendError, sendJson } from '../pipeline/answer/send-json.js';
import { checkApiKey } from '../pipeline/request/check-api-key.js';
import { readCallerBody } from '../pipeline/request/read-json-body.js';

export const INSPECTOR_KINDS_PATH = '/inspector/kinds';
export const INSPECTOR_TRANSLATE_PATH = '/inspector/translate';

/** One backend kind as the page's target selector shows it. */
export interface InspectorKind {
  name: string;
  /** A remote HTTP server; false for a kind that runs in the proxy (the bundled llama.cpp worker), whose "upstream" body is internal. */
  remote: boolean;
  /** Whether `speaks` may be set (`--speaks`); the endpoints it speaks by default. */
  speaksConfigurable: boolean;
  speaks: SpokenEndpoint[];
}

export interface InspectorApi {
  kinds(req: IncomingMessage, res: ServerResponse): void;
  translate(req: IncomingMessage, res: ServerResponse): void;
  /** Closes the default backends built for translations (none was started). */
  close(): Promise<void>;
}

/**
 * @example const api = inspectorApi(config); router.get(INSPECTOR_KINDS_PATH, api.kinds); router.post(INSPECTOR_TRANSLATE_PATH, api.translate);
 */
export function inspectorApi(config: Pick<ProxyConfig, 'server' | 'limits'>): InspectorApi {
  // One translator per target, built on first use and kept: its validators and adapter are built once.
  const translators = new Map<string, Promise<Translator>>();
  let kinds: Promise<InspectorKind[]> | undefined;

  const translatorFor = (kind: string, speaks: SpokenEndpoint[] | undefined) => {
    const key = `${kind}|${speaks?.join('+') ?? ''}`;
    let translator = translators.get(key);
    if (!translator) {
      translator = createTranslator({ kind, ...(speaks ? { speaks } : {}) });
      translators.set(key, translator);
      translator.catch(() => translators.delete(key));
    }
    return translator;
  };

  return {
    kinds(_req, res) {
      (kinds ??= listKinds()).then(
        (list) => sendJson(res, 200, { object: 'list', data: list }),
        (error: unknown) => sendError(res, undefined, toProxyError(error)),
      );
    },
    translate(req, res) {
      void answerTranslation(req, res);
    },
    async close() {
      const built = await Promise.allSettled(translators.values());
      translators.clear();
      await Promise.all(built.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.close() : undefined)));
    },
  };

  async function answerTranslation(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      checkApiKey(req, config.server.apiKeys);
      const query = new URL(req.url ?? '/', 'http://inspector').searchParams;
      const kind = query.get('to') ?? '';
      if (!findKind(kind)) {
        throw invalidRequest('to', `no backend kind "${kind}" (one of ${BACKEND_KINDS.map(({ name }) => name).join(', ')})`);
      }
      const speaks = speaksOf(kind, query.get('speaks'));
      const endpointName = query.get('endpoint');
      const endpoint = endpointName === null ? undefined : endpointNamed(endpointName);
      if (endpointName !== null && !endpoint) {
        throw invalidRequest('endpoint', `endpoint: chat, completions, responses or messages (got "${endpointName}")`);
      }
      const body = await readCallerBody(req, config);
      const translation = await (await translatorFor(kind, speaks)).translate(body, endpoint ? { endpoint } : {});
      if (translation.verdict === 'invalid') {
        sendJson(res, translation.error.status, translation.error.body);
        return;
      }
      const { report } = translation;
      if (report.error) sendJson(res, report.error.status, { ...report.error.body, dry_run: report });
      else sendJson(res, 200, report);
    } catch (error) {
      // OpenAI's error shape: the page reads `error.message` and `error.param` from every dialect's.
      sendError(res, { errorBody: chatErrorBody }, toProxyError(error));
    }
  }
}

function speaksOf(kind: string, value: string | null): SpokenEndpoint[] | undefined {
  if (value === null || value === '' || value === 'default') return undefined;
  if (!findKind(kind)?.keys.includes('speaks')) {
    throw invalidRequest('speaks', `a ${kind} backend always speaks the same endpoints; speaks does not apply`);
  }
  const speaks = speaksNamed(value);
  if (speaks) return speaks;
  throw invalidRequest('speaks', `speaks: chat, completions or both (got "${value}")`);
}

/** Every kind in the registry, with what its default backend speaks (its adapter built to read it, then closed: nothing starts). */
async function listKinds(): Promise<InspectorKind[]> {
  const list: InspectorKind[] = [];
  for (const kind of BACKEND_KINDS) {
    const adapter = await kind.create(kind.name, kind.defaults);
    try {
      list.push({
        name: kind.name,
        remote: kind.remote,
        speaksConfigurable: kind.keys.includes('speaks'),
        speaks: [...adapter.capabilities.speaks],
      });
    } finally {
      await adapter.close?.();
    }
  }
  return list;
}
