/**
 * Turns an Ajv instancePath into OpenAI's `param` and FastAPI's `loc`. The body
 * is validated wrapped as `{requestBody: body}` (openapi-backend's shape), so
 * paths start with `/requestBody`.
 */

export const BODY_PATH = '/requestBody';

export interface IssueLocation {
  param: string;
  loc: (string | number)[];
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * `/requestBody/messages/0/role` -> `messages[0].role`, `['body', 'messages', 0, 'role']`.
 * A segment is an index only where the body holds an array (`logit_bias.50256` stays a key).
 *
 * @example locateIssue('/requestBody/stream_options', body, 'foo') // { param: 'stream_options.foo', ... }
 */
export function locateIssue(instancePath: string, body: unknown, property?: string): IssueLocation {
  const segments: (string | number)[] = [];
  const rest = instancePath.startsWith(BODY_PATH) ? instancePath.slice(BODY_PATH.length) : instancePath;
  let node: unknown = body;
  for (const raw of rest === '' ? [] : rest.slice(1).split('/')) {
    const key = unescapePointer(raw);
    if (Array.isArray(node)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  if (property !== undefined) segments.push(property);
  let param = '';
  for (const segment of segments) {
    if (typeof segment === 'number') param += `[${segment}]`;
    else param += param === '' ? segment : `.${segment}`;
  }
  return { param, loc: ['body', ...segments] };
}
