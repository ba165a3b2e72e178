import { describe, expect, it } from 'vitest';
import { signWebhook } from './webhook-signature.js';

describe('signWebhook', () => {
  // The example of the Standard Webhooks specification (and of its reference libraries' tests).
  it('gives the signature of the specification example', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });
});
