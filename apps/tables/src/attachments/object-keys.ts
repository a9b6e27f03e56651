/**
 * Object keys are built from server-issued ids only, never from file names: `<organization>/<table>/<file>`.
 * A table's files share its prefix, so deleting a table removes them with one prefix sweep.
 */
export function tablePrefix(organizationId: string, tableId: string): string {
  return `${organizationId}/${tableId}/`;
}

export function fileKey(organizationId: string, tableId: string, fileId: string): string {
  return `${tablePrefix(organizationId, tableId)}${fileId}`;
}
