import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listRequestFields } from '../../helpers/list-request-fields.js';
import { defaultOpenapiDir } from '../../../src/validation/load-openapi-document.js';

describe('listRequestFields', () => {
  it('lists the top-level wire names of the chat request, in document order', () => {
    const fields = listRequestFields('chat');
    expect(fields.slice(0, 2)).toEqual(['messages', 'model']);
    expect(fields).toEqual(
      expect.arrayContaining(['stream_options', 'reasoning_effort', 'top_k', 'thinking', 'prompt_cache_key', 'safety_identifier']),
    );
    expect(fields).not.toContain('prompt');
  });

  it('lists the top-level wire names of the completions request', () => {
    const fields = listRequestFields('text');
    expect(fields[0]).toBe('model');
    expect(fields).toEqual(expect.arrayContaining(['prompt', 'images', 'echo_last', 'sampling_mask', 'stream_options']));
    expect(fields).not.toContain('messages');
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('lists the top-level wire names of the Anthropic Messages request', () => {
    const fields = listRequestFields('messages');
    expect(fields.slice(0, 3)).toEqual(['model', 'max_tokens', 'messages']);
    expect(fields).toEqual(expect.arrayContaining(['system', 'thinking', 'output_config', 'context_management', 'output_format']));
    expect(fields).not.toContain('user_profile_id');
  });

  it('returns a fresh array each call', () => {
    const first = listRequestFields('text');
    first.push('mutated');
    expect(listRequestFields('text')).not.toContain('mutated');
  });

  it('reads another openapiDir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      cpSync(defaultOpenapiDir(), dir, { recursive: true });
      const file = join(dir, 'fireworks-completions.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('        user:\n', '        end_user:\n'));
      expect(listRequestFields('text', { openapiDir: dir })).toContain('end_user');
      expect(listRequestFields('text')).not.toContain('end_user');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
