import { locateIssue } from '../../../src/validation/locate-issue.js';

describe('locateIssue', () => {
  it('turns array indexes into brackets and keys into dots', () => {
    const body = { messages: [{ content: [{ image_url: {} }] }] };
    expect(locateIssue('/requestBody/messages/0/content/0/image_url', body, 'url')).toEqual({
      param: 'messages[0].content[0].image_url.url',
      loc: ['body', 'messages', 0, 'content', 0, 'image_url', 'url'],
    });
  });

  it('keeps numeric object keys as keys and unescapes JSON pointers', () => {
    expect(locateIssue('/requestBody/logit_bias/50256', { logit_bias: { '50256': 1 } })).toEqual({
      param: 'logit_bias.50256',
      loc: ['body', 'logit_bias', '50256'],
    });
    expect(locateIssue('/requestBody/metadata/a~1b~0c', { metadata: {} }).loc).toEqual(['body', 'metadata', 'a/b~c']);
  });

  it('names a top-level property by itself', () => {
    expect(locateIssue('/requestBody', {}, 'model')).toEqual({ param: 'model', loc: ['body', 'model'] });
  });
});
