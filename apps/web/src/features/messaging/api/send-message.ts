import { sendMessageResponseSchema, type SendMessageRequest } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

/** POST /message/reply when the message answers another, else POST /message/add (data spec §5). */
export function sendMessage(message: SendMessageRequest) {
  return apiRequest(message.replyOf ? '/message/reply' : '/message/add', {
    method: 'POST',
    body: message,
    schema: sendMessageResponseSchema,
    quiet: true,
  });
}

/** A file's bytes as base64 without a data-URL prefix (the spec's attachment content). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // readAsDataURL leaves a string.
      const dataUrl = reader.result as string;
      resolve(dataUrl.slice(dataUrl.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}
