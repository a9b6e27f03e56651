import { comparisonLines, DROP_THRESHOLD, Figure, headlineFigures, recordedFiguresOf, worsening } from './compare';
import type { BenchReport } from './report';

const ratio: Figure = { key: 'creates.ratio', label: 'creates/s against the bare ceiling', value: 0.5, higherIsBetter: true };
const cpu: Figure = { key: 'creates.cpuMs', label: 'CPU ms per create, every process', value: 2.2, higherIsBetter: false };

describe('the bench against its recorded run', () => {
  it('counts a lower ratio and a higher CPU cost as worse, and the other way round as better', () => {
    expect(worsening(ratio, 0.6)).toBeCloseTo(1 / 6);
    expect(worsening(ratio, 0.4)).toBeCloseTo(-0.25);
    expect(worsening(cpu, 2)).toBeCloseTo(0.1);
    expect(worsening(cpu, 4.4)).toBeCloseTo(-0.5);
  });

  it('flags a figure worse by more than 10% as a DROP, and no other', () => {
    const lines = comparisonLines([ratio, cpu], { run: 'the last one', figures: { 'creates.ratio': 0.6, 'creates.cpuMs': 2.1 } });
    expect(lines).toEqual([
      '  creates/s against the bare ceiling: recorded 0.6, today 0.5 (worse by 16.7%) DROP',
      '  CPU ms per create, every process: recorded 2.1, today 2.2 (worse by 4.8%)',
    ]);
    expect(DROP_THRESHOLD).toBe(0.1);
  });

  it('says when a figure or the whole recorded run is missing', () => {
    expect(comparisonLines([cpu], { run: 'older', figures: {} })).toEqual(['  CPU ms per create, every process: 2.2 (not in the recorded run)']);
    expect(comparisonLines([cpu], undefined)[0]).toMatch(/no recorded run/);
  });

  it('records a run as its figures by key', () => {
    expect(recordedFiguresOf('quick run x', [ratio, cpu])).toEqual({ run: 'quick run x', figures: { 'creates.ratio': 0.5, 'creates.cpuMs': 2.2 } });
  });

  it('judges a figure that has its ceiling in both runs as a multiple of it, so a slower machine is no DROP', () => {
    const recorded = { run: 'the last one', figures: { 'creates.cpuMs': 1 }, references: { 'creates.cpuMs': 0.5 } };
    // Twice the CPU on a machine where the bare server also takes twice: the same system.
    expect(comparisonLines([{ ...cpu, value: 2, reference: 1 }], recorded)).toEqual([
      "  CPU ms per create, every process: recorded 1 (2x its ceiling's 0.5), today 2 (2x its 1): better by 0% against the ceiling",
    ]);
    // The same CPU where the bare server got faster: the system fell behind it.
    expect(comparisonLines([{ ...cpu, value: 1, reference: 0.4 }], recorded)).toEqual([
      "  CPU ms per create, every process: recorded 1 (2x its ceiling's 0.5), today 1 (2.5x its 0.4): worse by 25% against the ceiling DROP",
    ]);
    // Without a reference in the recorded run, the figures themselves are compared.
    expect(comparisonLines([{ ...cpu, value: 2, reference: 1 }], { run: 'older', figures: { 'creates.cpuMs': 1 } })[0]).toBe(
      '  CPU ms per create, every process: recorded 1, today 2 (worse by 100%) DROP',
    );
  });

  it('records the ceilings beside the figures, keeping those of the figures it keeps', () => {
    const before = { run: 'full run y', figures: { 'creates.cpuMs': 1, 'batches.cpuMs': 100 }, references: { 'creates.cpuMs': 0.5, 'batches.cpuMs': 80 } };
    expect(recordedFiguresOf('run x', [{ ...cpu, reference: 1.5 }], before)).toEqual({
      run: 'run x (creates.cpuMs); the rest: full run y',
      figures: { 'creates.cpuMs': 2.2, 'batches.cpuMs': 100 },
      references: { 'creates.cpuMs': 1.5, 'batches.cpuMs': 80 },
    });
  });

  it('records a run of some scenarios over the recorded one, keeping the figures it did not measure', () => {
    const before = { run: 'full run y', figures: { 'creates.ratio': 0.4, 'lists.10000.p95': 30 } };
    expect(recordedFiguresOf('full run x', [ratio], before)).toEqual({
      run: 'full run x (creates.ratio); the rest: full run y',
      figures: { 'creates.ratio': 0.5, 'lists.10000.p95': 30 },
    });
    expect(recordedFiguresOf('full run x', [ratio, cpu], { run: 'full run y', figures: { 'creates.ratio': 0.4 } })).toEqual({
      run: 'full run x',
      figures: { 'creates.ratio': 0.5, 'creates.cpuMs': 2.2 },
    });
  });

  it("judges commit-to-receipt's CPU per event against the bare server's CPU per create at the same pace, when the creates ran at it", () => {
    const latency = { rate: 500, rowsPerRequest: 1, p50: 20, p99: 90, cpuMsPerEvent: { gateway: 1, webhooks: 2 } };
    const deliveries = { latency, batchedLatency: { ...latency, rowsPerRequest: 10 }, oneWorker: { cpuMsPerDelivery: {} }, ceiling: { cpuMsPerRequest: 0.1 } };
    const atPace = (rate: number) => ({ rate, cpuMsPerBareCreate: { bare: 0.5, postgres: 0.25 } });
    const creates = { ratio: 1, cpuMsPerCreate: {}, cpuMsPerBareCreate: {}, atFixedRate: { rate: 1000, gateway: { p99: 50 }, bare: { p99: 40 } } };
    const receiptCpu = (report: object) => headlineFigures({ lists: [], ...report } as unknown as BenchReport).find((figure) => figure.key === 'receipt.singleCpuMs');
    expect(receiptCpu({ deliveries, creates: { ...creates, atPace: atPace(500) } })).toEqual({
      key: 'receipt.singleCpuMs',
      label: 'CPU ms per event from single creates, every process',
      value: 3,
      higherIsBetter: false,
      reference: 0.75,
    });
    // Paced otherwise, or not run: the figure stands alone.
    expect(receiptCpu({ deliveries, creates: { ...creates, atPace: atPace(250) } })?.reference).toBeUndefined();
    expect(receiptCpu({ deliveries })).toMatchObject({ value: 3 });
    expect(receiptCpu({ deliveries })?.reference).toBeUndefined();
  });
});
