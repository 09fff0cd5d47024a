/**
 * Who may import what (docs/architecture.md, "Who owns what"), checked by
 * `npm run lint`. Type-only imports count: a circle of types is still a
 * circle to read.
 */
const SRC = '^src/';
/** A folder of src/ and what it may import besides itself (node: and npm packages are always allowed). */
const LAYERS = {
  // An error that repeats a caller's text (a model name) cuts it as the log and the spans do.
  errors: ['text'],
  config: [],
  // Bounded text: how much of a string fits a byte budget written (the log's, the span exporter's and an error's cuts).
  text: [],
  logging: ['text'],
  model: ['errors'],
  streaming: ['model', 'errors'],
  // Backends' stats (types), read when scraped.
  metrics: ['model', 'errors', 'backend'],
  validation: ['model', 'errors', 'config'],
  'response-store': ['config', 'errors'],
  backend: ['model', 'errors', 'config'],
  dialects: ['model', 'errors', 'config', 'streaming', 'response-store'],
  // OpenTelemetry traces: the SDK only behind a dynamic import (create-runtime.ts); the pipeline imports its types.
  telemetry: ['model', 'errors', 'config', 'backend', 'text'],
  pipeline: [
    'model',
    'errors',
    'config',
    'logging',
    'streaming',
    'metrics',
    'validation',
    'response-store',
    'backend',
    'dialects',
    'telemetry',
  ],
};

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${allowed.length ? allowed.map((name) => `src/${name}/`).join(', ') : 'nothing else of the project'} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `${SRC}${layer}/` },
  to: { path: '^(src|adapters)/', pathNot: [`${SRC}${layer}/`, ...allowed.map((name) => `${SRC}${name}/`)] },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only ones included: each module reads without its importers.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'src-reaches-kinds-through-the-registry',
      comment: 'src/ knows backend kinds only through adapters/registry.ts.',
      severity: 'error',
      from: { path: SRC },
      to: { path: '^adapters/', pathNot: '^adapters/registry\\.ts$' },
    },
    {
      name: 'adapters-never-see-the-front',
      comment: 'A backend kind sees neutral requests only: never a dialect, the pipeline, the HTTP surface or a command.',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^src/(dialects|pipeline|http|commands|runtime|validation|metrics|response-store)/' },
    },
    {
      name: 'kinds-share-only-openai-wire',
      comment: "A kind's folder imports another kind's only for the OpenAI wire readers and builders (adapters/openai/).",
      severity: 'error',
      from: { path: '^adapters/([^/]+)/' },
      to: { path: '^adapters/[^/]+/', pathNot: ['^adapters/$1/', '^adapters/openai/'] },
    },
    {
      name: 'entry-points-only-at-the-top',
      comment: 'src/ top level holds the entry points (index.ts, cli.ts); the rest lives in a folder that says what it is.',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '^src/(index|cli)\\.ts$' },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
  },
};
