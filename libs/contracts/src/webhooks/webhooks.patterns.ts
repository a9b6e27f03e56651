/** NATS request-reply subjects of the webhooks context (queue group `webhooks`). */
export const WebhooksPatterns = {
  list: 'webhooks.list',
  get: 'webhooks.get',
  create: 'webhooks.create',
  update: 'webhooks.update',
  remove: 'webhooks.delete',
  deliveries: 'webhooks.deliveries',
  test: 'webhooks.test',
  rotateSecret: 'webhooks.rotate-secret',
  redeliver: 'webhooks.redeliver',
  recover: 'webhooks.recover',
  recovery: 'webhooks.recovery',
} as const;
