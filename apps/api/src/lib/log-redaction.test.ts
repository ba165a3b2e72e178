import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it.each([
    ['/api/ws?accessToken=eyJ.a.b', '/api/ws?accessToken=[redacted]'],
    ['/api/user/confirmation?token=abc&x=1', '/api/user/confirmation?token=[redacted]&x=1'],
    ['/user/confirmation/abc', '/user/confirmation/[redacted]'],
    ['/api/auth/login-token/abc', '/api/auth/login-token/[redacted]'],
    ['/api/extractor/token/abc/step/10/file', '/api/extractor/token/[redacted]/step/10/file'],
    ['/api/file/abc', '/api/file/[redacted]'],
    ['/file/abc?download=1', '/file/[redacted]?download=1'],
    ['/screen-share/abc', '/screen-share/[redacted]'],
    ['/screen-share-executor/abc', '/screen-share-executor/[redacted]'],
    ['/screen-share-viewer/abc', '/screen-share-viewer/[redacted]'],
    ['/messaging-fengine/abc', '/messaging-fengine/[redacted]'],
    ['/message/token/abc', '/message/token/[redacted]'],
    ['/API/Extractor/TOKEN//abc', '/API/Extractor/TOKEN//[redacted]'],
    ['/api/ws?access%54oken=abc', '/api/ws?access%54oken=[redacted]'],
    [
      '/api/statement-recognition-template/image/uuid/8d0b?expires=1700000000&signature=abc',
      '/api/statement-recognition-template/image/uuid/8d0b?expires=1700000000&signature=[redacted]',
    ],
    ['/api/x?Signature=abc', '/api/x?Signature=[redacted]'],
  ])('%s → %s', (url, logged) => expect(redactUrl(url)).toBe(logged));

  it.each([
    '/api/extractor/run/8d0b/step/10/file?row=1&column=2',
    '/api/extractor/execute/8d0b',
    '/screen-share-executor',
    '/assets/index-CMNybYS4.js',
    '/api/user/isEmailValid/a%40b.com',
  ])('leaves %s alone', (url) => expect(redactUrl(url)).toBe(url));
});
