import { Inject, Injectable, Logger } from '@nestjs/common';
import { FieldType, OperationData, OperationInput, TablesMessages, TablesOperations } from '@contracts';
import { AppError } from '@platform/errors';
import { askService, ServiceCaller } from '@platform/messaging';
import { currentQueryScope } from '@platform/persistence';
import { NATS_CONNECTION } from '@platform/service';
import { NatsConnection } from 'nats';

/** How long the question may take when no caller's deadline bounds it. */
const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * The tables of an organization, as the tables context answers over NATS (`tables.existing-ids`): the
 * webhooks context holds table ids only and never reads the tables' schema.
 */
@Injectable()
export class OrganizationTables {
  private readonly logger = new Logger('OrganizationTables');

  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  /**
   * The ids, lowercase, once each is known to name a table of the organization; otherwise a
   * VALIDATION_ERROR naming the first that does not (`table_ids[i]`). An id of another organization's
   * table is refused alike, so the answer never tells that it exists elsewhere.
   */
  async ownedTableIds(asker: ServiceCaller, tableIds: readonly string[]): Promise<string[]> {
    const ids = tableIds.map((id) => id.toLowerCase());
    const existing = new Set(await this.existing(asker, ids));
    const unknown = ids.findIndex((id) => !existing.has(id));
    if (unknown >= 0) throw AppError.validation(`table_ids[${unknown}]`, 'is not a table of the organization');
    return ids;
  }

  /** The fields of one table of the organization (slug and type: what a webhook's filter is checked against). */
  async fieldsOf(asker: ServiceCaller, tableId: string): Promise<Array<{ slug: string; fieldType: FieldType }>> {
    const data = await this.ask(asker, TablesOperations.get, { tableId }, 'the fields of a table');
    if (!Array.isArray(data?.fields)) throw AppError.internal('The tables service is unavailable');
    return data.fields.map((field) => ({ slug: field.slug, fieldType: field.field_type }));
  }

  private async existing(asker: ServiceCaller, tableIds: string[]): Promise<string[]> {
    const data = await this.ask(asker, TablesMessages.existingIds, { tableIds }, 'which tables exist');
    if (!Array.isArray(data?.table_ids)) throw AppError.internal('The tables service is unavailable');
    return data.table_ids.map((id) => id.toLowerCase());
  }

  private async ask<D extends typeof TablesOperations.get | typeof TablesMessages.existingIds>(
    asker: ServiceCaller,
    declaration: D,
    input: OperationInput<D>,
    what: string,
  ): Promise<OperationData<D> | undefined> {
    const deadline = currentQueryScope()?.deadline;
    const timeoutMs = deadline === undefined ? DEFAULT_TIMEOUT_MS : Math.min(DEFAULT_TIMEOUT_MS, deadline - Date.now());
    if (timeoutMs <= 0) throw AppError.internal('The request did not finish in time');
    try {
      return (await askService(this.nc, declaration, asker, input, timeoutMs)).data;
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.logger.error({ err: error, requestId: asker.requestId }, `could not ask the tables service ${what}`);
      throw AppError.internal('The tables service is unavailable');
    }
  }
}
