/**
 * Whether a filtered page is read by fetching every match and sorting them, rather than by walking the
 * sort order's index until enough rows match. Fetching costs about one row read per match (`matches`);
 * the walk passes about `table rows / matches` rows for each of the `reach` rows it must find (offset and
 * page). So the fetch wins while matches² ≤ reach × table rows: at 200,000 rows and a page of 51, up to
 * about 3,200 matches. It keeps a filter that matches little (a text search, above all) from scanning
 * most of a large table for one page.
 */
export function readsMatchesFirst(matches: number, reach: number, tableRows: number): boolean {
  return matches * matches <= reach * tableRows;
}
