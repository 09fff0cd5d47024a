/**
 * Ajv errors -> ValidationIssues. Ajv reports every branch of a failed
 * anyOf/oneOf; we report one issue per union instead: the errors of the one
 * branch the value evidently meant (its type and `type`/`role` tag fit), or,
 * when no branch stands out, a single "must be one of: ..." for the union's field.
 */
import { describeAllowed, describeValue } from './describe-schema.js';
import { BODY_PATH, locateIssue } from './locate-issue.js';
import type { ValidationIssue } from './validation-issue.js';

/** The parts of an Ajv error this module reads (Ajv runs with `verbose: true`). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

const UNIONS = new Set(['anyOf', 'oneOf']);
const RANGES = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const VALUE_CHECKS = new Set(['enum', 'const']);

const bodyIssue = (type: string): ValidationIssue => ({
  param: '',
  loc: ['body'],
  type,
  message: 'The request body must be a JSON object.',
});

/**
 * The innermost failed union that contains each error (its schemaPath a prefix of the
 * error's, its instancePath the error's or above): looked up by the error's prefixes,
 * not by trying every union, as a body with thousands of failing elements has
 * thousands of unions.
 */
function ownerFinder(unions: readonly SchemaError[]): (error: SchemaError) => SchemaError | undefined {
  const bySchemaPath = new Map<string, Map<string, SchemaError>>();
  for (const union of unions) {
    const byInstance = bySchemaPath.get(union.schemaPath) ?? new Map<string, SchemaError>();
    if (!byInstance.has(union.instancePath)) byInstance.set(union.instancePath, union);
    bySchemaPath.set(union.schemaPath, byInstance);
  }
  const order = new Map(unions.map((union, i) => [union, i]));
  return (error) => {
    const { schemaPath, instancePath } = error;
    for (let end = schemaPath.lastIndexOf('/'); end > 0; end = schemaPath.lastIndexOf('/', end - 1)) {
      const byInstance = bySchemaPath.get(schemaPath.slice(0, end));
      if (!byInstance) continue;
      // The first in Ajv's order among those at the error's place or above it.
      let owner: SchemaError | undefined;
      for (let at = instancePath.length; at >= 0; at = instancePath.lastIndexOf('/', at - 1)) {
        const union = byInstance.get(instancePath.slice(0, at));
        if (union && (!owner || order.get(union)! < order.get(owner)!)) owner = union;
        if (at === 0) break;
      }
      if (owner) return owner;
    }
    return undefined;
  };
}

function branchIndex(union: SchemaError, error: SchemaError): number {
  return Number(error.schemaPath.slice(union.schemaPath.length + 1).split('/', 1)[0]);
}

/** The branch does not even fit the value's type, or its `type`/`role` tag. */
function rejectsOutright(error: SchemaError, at: string): boolean {
  if (error.instancePath === at) return error.keyword === 'type' || VALUE_CHECKS.has(error.keyword);
  return VALUE_CHECKS.has(error.keyword) && (error.instancePath === `${at}/type` || error.instancePath === `${at}/role`);
}

/** The branch requires a `type` tag the value does not have. */
function lacksTag(error: SchemaError, at: string): boolean {
  return error.instancePath === at && error.keyword === 'required' && error.params.missingProperty === 'type';
}

function plural(count: unknown, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? '' : 's'}`;
}

type TaggedSchema = { properties?: Record<string, { enum?: unknown[]; const?: unknown }> } | undefined;

function tagValues(parentSchema: Record<string, unknown> | undefined, tagName: string): unknown[] {
  const branches: unknown[] = Array.isArray(parentSchema?.oneOf) ? parentSchema.oneOf : [];
  return branches.flatMap((branch) => {
    const tag = (branch as TaggedSchema)?.properties?.[tagName];
    return tag?.enum ?? (tag && 'const' in tag ? [tag.const] : []);
  });
}

/** One non-union error as an issue. */
function toIssue(error: SchemaError, body: unknown): ValidationIssue {
  const { instancePath, keyword, params, data } = error;
  if (instancePath === '' || (instancePath === BODY_PATH && keyword === 'type'))
    return bodyIssue(keyword === 'required' ? 'missing' : 'type_error');
  const here = locateIssue(instancePath, body);
  const got = `; got ${describeValue(data)}`;
  switch (keyword) {
    case 'required': {
      const at = locateIssue(instancePath, body, String(params.missingProperty));
      return { ...at, type: 'missing', message: `'${at.param}' is a required property` };
    }
    case 'additionalProperties': {
      const at = locateIssue(instancePath, body, String(params.additionalProperty));
      return { ...at, type: 'extra_forbidden', message: `Unrecognized request argument supplied: ${at.param}` };
    }
    case 'type':
      return { ...here, type: 'type_error', message: `${here.param}: must be ${describeAllowed([error.parentSchema])}${got}` };
    case 'enum':
      return { ...here, type: 'enum', message: `${here.param}: must be ${describeAllowed([{ enum: params.allowedValues }])}${got}` };
    case 'const':
      return { ...here, type: 'enum', message: `${here.param}: must be ${describeAllowed([{ enum: [params.allowedValue] }])}${got}` };
    case 'discriminator': {
      const tagName = String(params.tag);
      const at = locateIssue(instancePath, body, tagName);
      const tag = data && typeof data === 'object' ? (data as Record<string, unknown>)[tagName] : undefined;
      if (tag === undefined) return { ...at, type: 'missing', message: `'${at.param}' is a required property` };
      if (typeof tag !== 'string')
        return { ...at, type: 'type_error', message: `${at.param}: must be a string; got ${describeValue(tag)}` };
      const allowed = describeAllowed([{ enum: tagValues(error.parentSchema, tagName) }]);
      return { ...at, type: 'enum', message: `${at.param}: must be ${allowed}; got ${describeValue(tag)}` };
    }
    case 'minItems':
      return { ...here, type: 'too_short', message: `${here.param}: must have at least ${plural(params.limit, 'item')}` };
    case 'maxItems':
      return { ...here, type: 'too_long', message: `${here.param}: must have at most ${plural(params.limit, 'item')}` };
    case 'minLength':
      return { ...here, type: 'too_short', message: `${here.param}: must be at least ${plural(params.limit, 'character')} long` };
    case 'maxLength':
      return { ...here, type: 'too_long', message: `${here.param}: must be at most ${plural(params.limit, 'character')} long` };
    case 'format':
      return { ...here, type: 'format', message: `${here.param}: must be a valid ${String(params.format)}${got}` };
    default:
      return { ...here, type: RANGES.has(keyword) ? 'range' : 'invalid', message: `${here.param}: ${error.message ?? `fails ${keyword}`}` };
  }
}

/** The issue for a union whose branches all fail and none stands out. */
function unionIssue(union: SchemaError, branchErrors: Map<number, SchemaError[]>, body: unknown): ValidationIssue {
  const here = locateIssue(union.instancePath, body);
  const at = union.instancePath;
  const typeFits = [...branchErrors.values()].filter((errors) => !errors.some((e) => e.instancePath === at && e.keyword === 'type'));
  // A value of a fitting type that no branch's enum or tag accepts is an enum problem; the rest are shape problems.
  const type = typeFits.length > 0 && typeFits.every((errors) => errors.some((e) => rejectsOutright(e, at))) ? 'enum' : 'type_error';
  const branches = Array.isArray(union.schema) ? union.schema : [];
  return { ...here, type, message: `${here.param}: must be ${describeAllowed(branches)}; got ${describeValue(union.data)}` };
}

/**
 * Converts Ajv's errors for one body into issues, in Ajv's order, without duplicates.
 * Expects a schema without `$ref`s (see inline-refs.ts): union membership is read from schemaPaths.
 *
 * @example toValidationIssues(validate.errors ?? [], body)
 */
export function toValidationIssues(errors: readonly SchemaError[], body: unknown): ValidationIssue[] {
  // Each error belongs to the innermost failed union that contains it (undefined: top level).
  const ownerOf = ownerFinder(errors.filter((error) => UNIONS.has(error.keyword)));
  const children = new Map<SchemaError | undefined, SchemaError[]>();
  for (const error of errors) {
    const owner = ownerOf(error);
    const list = children.get(owner);
    if (list) list.push(error);
    else children.set(owner, [error]);
  }

  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const visit = (list: readonly SchemaError[]): void => {
    for (const error of list) {
      if (UNIONS.has(error.keyword)) {
        visitUnion(error);
        continue;
      }
      const issue = toIssue(error, body);
      const key = `${issue.param}\u0000${issue.message}`;
      if (!seen.has(key)) {
        seen.add(key);
        issues.push(issue);
      }
    }
  };
  const visitUnion = (union: SchemaError): void => {
    const byBranch = new Map<number, SchemaError[]>();
    for (const error of children.get(union) ?? []) {
      const index = branchIndex(union, error);
      const list = byBranch.get(index);
      if (list) list.push(error);
      else byBranch.set(index, [error]);
    }
    const at = union.instancePath;
    const fitting = [...byBranch.values()].filter((list) => !list.some((error) => rejectsOutright(error, at)));
    // Several fit: prefer the one whose errors are all inside the value, not about the value itself;
    // else, for a value without a `type`, the one branch that does not require it (an untyped custom tool).
    const inside = fitting.filter((list) => list.every((error) => error.instancePath !== at));
    const untagged = fitting.filter((list) => !list.some((error) => lacksTag(error, at)));
    const chosen = fitting.length === 1 ? fitting[0] : inside.length === 1 ? inside[0] : untagged.length === 1 ? untagged[0] : undefined;
    if (chosen) {
      visit(chosen);
      return;
    }
    const issue = unionIssue(union, byBranch, body);
    const key = `${issue.param}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  };
  visit(children.get(undefined) ?? []);
  return issues;
}
