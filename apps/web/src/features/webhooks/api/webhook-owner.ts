/** Whose webhooks a dialog shows: an extractor's, or the runs a scheduler starts. */
export interface WebhookOwner {
  kind: 'extractor' | 'scheduler';
  id: string;
  name: string;
}

export const webhookOwnerPath = (owner: Pick<WebhookOwner, 'kind' | 'id'>) =>
  `/webhooks/${owner.kind}/${encodeURIComponent(owner.id)}`;
