/**
 * The gateway's readinessProbe in deploy/k8s/base/apps/gateway.yaml: out after two failures in a row, a
 * probe failing when it takes 3 s. Probed every second here (the manifest: every 5 s).
 */
const FAILURE_THRESHOLD = 2;
const PROBE_TIMEOUT_MS = 3_000;

/**
 * What a Kubernetes Service does for the gateways: sends each request to the next gateway whose readiness
 * probe has not failed twice in a row, and drops a gateway at once when its pod starts terminating
 * (`withdraw`), before the kubelet's preStop pause and SIGTERM.
 */
export class GatewayBalancer {
  private readonly failures: number[];
  private readonly probing: boolean[];
  private readonly withdrawn = new Set<string>();
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly gateways: { gatewayUrl: string; gatewayHealthUrl: string }[],
    private readonly intervalMs = 1_000,
  ) {
    this.failures = gateways.map(() => 0);
    this.probing = gateways.map(() => false);
  }

  start(): void {
    this.timer = setInterval(() => void this.probe(), this.intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  withdraw(gatewayUrl: string): void {
    this.withdrawn.add(gatewayUrl);
  }

  /** Back in once it is ready again (its next passing probe). */
  restore(gatewayUrl: string): void {
    this.withdrawn.delete(gatewayUrl);
  }

  /** The next ready gateway's API URL (when none is ready, the next one not terminating: the request then shows it). */
  pick = (): string => {
    const serving = this.gateways.filter(({ gatewayUrl }) => !this.withdrawn.has(gatewayUrl));
    const ready = serving.filter((gateway) => this.failures[this.gateways.indexOf(gateway)] < FAILURE_THRESHOLD);
    const candidates = ready.length > 0 ? ready : serving.length > 0 ? serving : this.gateways;
    return candidates[this.next++ % candidates.length].gatewayUrl;
  };

  private async probe(): Promise<void> {
    await Promise.all(
      this.gateways.map(async ({ gatewayHealthUrl }, i) => {
        if (this.probing[i]) return;
        this.probing[i] = true;
        const ready = await fetch(gatewayHealthUrl, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
          (res) => {
            void res.body?.cancel();
            return res.ok;
          },
          () => false,
        );
        this.failures[i] = ready ? 0 : this.failures[i] + 1;
        this.probing[i] = false;
      }),
    );
  }
}
