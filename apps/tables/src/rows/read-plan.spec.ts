import { readsMatchesFirst } from './read-plan';

describe('readsMatchesFirst', () => {
  it('reads the matches first while matches² is at most the rows the page reaches times the table rows', () => {
    // 200,000 rows, a page of 51: the walk passes ~200,000/m rows per row it needs.
    expect(readsMatchesFirst(0, 51, 200_000)).toBe(true);
    expect(readsMatchesFirst(622, 51, 200_000)).toBe(true);
    expect(readsMatchesFirst(3_193, 51, 200_000)).toBe(true);
    expect(readsMatchesFirst(3_194, 51, 200_000)).toBe(false);
    expect(readsMatchesFirst(40_000, 51, 200_000)).toBe(false);
  });

  it('counts the offset: a deep page makes the walk longer, so more matches are worth reading', () => {
    expect(readsMatchesFirst(10_000, 51, 200_000)).toBe(false);
    expect(readsMatchesFirst(10_000, 1_001, 200_000)).toBe(true);
  });

  it('walks a small table, where every plan is cheap and the index already gives the order', () => {
    expect(readsMatchesFirst(100, 51, 100)).toBe(false);
  });
});
