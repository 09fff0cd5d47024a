/**
 * The OpenAPI formats openapi-backend gives Ajv (validation.js `defaultFormats`),
 * for the validators compiled ahead of time: the same checks, importable by
 * generated code.
 */
const bitRange = (bits: number) => {
  const max = 2 ** (bits - 1);
  return (value: number) => value >= -max && value < max;
};

const any = () => true;

export const validatorFormats = {
  int32: { type: 'number', validate: bitRange(32) },
  int64: { type: 'number', validate: bitRange(64) },
  float: { type: 'number', validate: any },
  double: { type: 'number', validate: any },
  byte: { type: 'string', validate: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/ },
  binary: { type: 'string', validate: any },
  password: { type: 'string', validate: any },
} as const;
