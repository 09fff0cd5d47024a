/**
 * Every field of Fireworks' `POST /v1/completions` request (the seed,
 * fireworks-create-completion.md) with its fate. A field missing here does not
 * compile; an unknown key is a 400 (field-table.ts).
 */
import { commonFields, streamFields, type CommonField } from '../common-fields.js';
import { copyTo, type FieldTable } from '../field-table.js';
import { commonCrossFieldRules, type CrossFieldRule } from '../cross-field-rules.js';

export type CompletionsField = CommonField | 'prompt' | 'images' | 'stream' | 'stream_options';

export const completionsFields: FieldTable<CompletionsField> = {
  ...commonFields,
  // Fireworks includes usage in streams unless told not to.
  ...streamFields({ includeUsage: true }),
  prompt: copyTo('prompt'),
  images: copyTo('images'),
};

export const completionsCrossFieldRules: readonly CrossFieldRule[] = [...commonCrossFieldRules];
