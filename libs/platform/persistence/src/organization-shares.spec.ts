import { OrganizationShares } from './organization-shares';
import { DeadlineExceededError } from './query-scope';

const later = () => Date.now() + 60_000;

describe('OrganizationShares', () => {
  it('lets one organization hold at most its share, leaving the rest of the pool to others', async () => {
    const shares = new OrganizationShares(4, 2);
    await shares.acquire('a', later());
    await shares.acquire('a', later());
    let third = false;
    // Never admitted here: its deadline passes after the test, so its rejection is handled, not left unhandled.
    void shares.acquire('a', Date.now() + 1_000).then(
      () => (third = true),
      () => undefined,
    );
    await shares.acquire('b', later());
    await shares.acquire('c', later());
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    expect(shares.usage('a')).toEqual({ held: 2, waiting: 1 });
  });

  it('hands freed connections to waiting organizations in turn, not in arrival order', async () => {
    const shares = new OrganizationShares(2, 2);
    const first = await shares.acquire('a', later());
    const second = await shares.acquire('a', later());
    const admitted: string[] = [];
    const releases: (() => void)[] = [];
    const wait = (org: string) => void shares.acquire(org, later()).then((release) => (admitted.push(org), releases.push(release)));
    ['a', 'a', 'a', 'b', 'c'].forEach(wait);
    first();
    second();
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    while (releases.length) {
      releases.shift()?.();
      await settle();
    }
    expect(admitted).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('gives up at the deadline and leaves the queue', async () => {
    const shares = new OrganizationShares(1, 1);
    const release = await shares.acquire('a', later());
    const started = Date.now();
    await expect(shares.acquire('a', Date.now() + 50)).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(shares.usage('a')).toEqual({ held: 1, waiting: 0 });
    release();
    expect(shares.usage('a')).toEqual({ held: 0, waiting: 0 });
    await expect(shares.acquire('b', later())).resolves.toEqual(expect.any(Function));
  });

  it('lets an organization alone take up to its larger share, leaving the rest free for the next to arrive', async () => {
    const shares = new OrganizationShares(10, 2, 5);
    for (let i = 0; i < 5; i += 1) await shares.acquire('a', later());
    let sixth = false;
    void shares.acquire('a', Date.now() + 1_000).then(
      () => (sixth = true),
      () => undefined,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(sixth).toBe(false);
    expect(shares.usage('a')).toEqual({ held: 5, waiting: 1 });
    // The next organization finds connections free at once.
    await expect(shares.acquire('b', later())).resolves.toEqual(expect.any(Function));
  });

  it('holds an organization to its share while another is active, and for a moment after', async () => {
    const shares = new OrganizationShares(10, 2, 5, 100);
    const releaseB = await shares.acquire('b', later());
    releaseB();
    // b took a connection a moment ago: a gets its share, not the larger one.
    await shares.acquire('a', later());
    await shares.acquire('a', later());
    let third = false;
    const waiting = shares.acquire('a', later()).then(() => (third = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(third).toBe(false);
    // Once b has been quiet for the window, a may grow again: its next release or request admits it.
    await new Promise((resolve) => setTimeout(resolve, 120));
    await shares.acquire('a', later());
    await waiting;
    expect(shares.usage('a')).toEqual({ held: 4, waiting: 0 });
  });

  it('counts a release once, however often it is called', async () => {
    const shares = new OrganizationShares(2, 2);
    const release = await shares.acquire('a', later());
    await shares.acquire('a', later());
    release();
    release();
    expect(shares.usage('a').held).toBe(1);
  });
});
