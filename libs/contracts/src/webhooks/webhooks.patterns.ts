/** NATS request-reply subjects of the webhooks context (queue group `webhooks`). */
export const WebhooksPatterns = {
  list: 'webhooks.list',
  create: 'webhooks.create',
  update: 'webhooks.update',
  remove: 'webhooks.delete',
  deliveries: 'webhooks.deliveries',
  test: 'webhooks.test',
} as const;
