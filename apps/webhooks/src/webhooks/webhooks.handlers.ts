import { Injectable } from '@nestjs/common';
import { EventTypeView, eventTypeViews, OperationInput, ServiceResult, WebhooksOperations as Ops } from '@contracts';
import { Handles, ServiceCaller } from '@platform/messaging';
import { RedeliveryService } from '../event-store/redelivery.service';
import { WebhooksService } from './webhooks.service';

/** The webhooks context's operations (queue group `webhooks`). */
@Injectable()
export class WebhooksHandlers {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly redelivery: RedeliveryService,
  ) {}

  /** The same for every caller and the life of the process: built once from the contract classes. */
  private readonly eventTypes = eventTypeViews();

  @Handles(Ops.list)
  list(input: OperationInput<typeof Ops.list>, { org }: ServiceCaller) {
    return this.webhooks.list(org.id, input);
  }

  @Handles(Ops.get)
  get({ webhookId }: OperationInput<typeof Ops.get>, { org }: ServiceCaller) {
    return this.webhooks.get(org.id, webhookId);
  }

  @Handles(Ops.create)
  create(input: OperationInput<typeof Ops.create>, caller: ServiceCaller) {
    return this.webhooks.create(caller, input);
  }

  @Handles(Ops.update)
  update(input: OperationInput<typeof Ops.update>, caller: ServiceCaller) {
    return this.webhooks.update(caller, input);
  }

  @Handles(Ops.remove)
  remove({ webhookId }: OperationInput<typeof Ops.remove>, { org }: ServiceCaller) {
    return this.webhooks.remove(org.id, webhookId);
  }

  @Handles(Ops.deliveries)
  deliveries(input: OperationInput<typeof Ops.deliveries>, { org }: ServiceCaller) {
    return this.webhooks.deliveriesOf(org.id, input);
  }

  @Handles(Ops.rotateSecret)
  rotateSecret(input: OperationInput<typeof Ops.rotateSecret>, { org }: ServiceCaller) {
    return this.webhooks.rotateSecret(org.id, input);
  }

  @Handles(Ops.redeliver)
  redeliver(input: OperationInput<typeof Ops.redeliver>, { org }: ServiceCaller) {
    return this.redelivery.redeliver(org.id, input);
  }

  @Handles(Ops.recover)
  recover(input: OperationInput<typeof Ops.recover>, { org }: ServiceCaller) {
    return this.redelivery.recover(org.id, input);
  }

  @Handles(Ops.recovery)
  recovery(input: OperationInput<typeof Ops.recovery>, { org }: ServiceCaller) {
    return this.redelivery.recovery(org.id, input);
  }

  @Handles(Ops.test)
  test(input: OperationInput<typeof Ops.test>, { org }: ServiceCaller) {
    return this.webhooks.test(org.id, input);
  }

  @Handles(Ops.eventTypes)
  async listEventTypes(_input: OperationInput<typeof Ops.eventTypes>, _caller: ServiceCaller): Promise<ServiceResult<EventTypeView[]>> {
    return { data: this.eventTypes };
  }
}
