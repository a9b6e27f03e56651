import { serviceMessage } from '../operation';

/** The most table ids one `tables.existing-ids` message may ask about. */
export const MAX_TABLE_IDS_PER_LOOKUP = 100;

/** Ids another context holds (a webhook's `table_ids`, checked at its edge), to check against the organization's tables. */
export interface ExistingTableIdsInput {
  tableIds: string[];
}

/** The answer's data: the ids asked about that name a table of the organization, lowercase; the others are unknown to it. */
export interface ExistingTableIds {
  table_ids: string[];
}

/**
 * What other contexts ask the tables service inside the system (queue group `tables`). They also ask
 * `TablesOperations.get` for a table's fields, as the gateway does.
 */
export const TablesMessages = {
  existingIds: serviceMessage<ExistingTableIdsInput, ExistingTableIds>({
    subject: 'tables.existing-ids',
    summary: 'Which of these ids name tables of the organization',
  }),
};
