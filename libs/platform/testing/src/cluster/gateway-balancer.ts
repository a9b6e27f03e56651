/** Consecutive failed probes that take a gateway out, as the readiness probe's failureThreshold does. */
const FAILURE_THRESHOLD = 2;

/**
 * What a Kubernetes Service does for the gateways: sends each request to the next gateway whose readiness
 * probe has not failed twice in a row (probed every `intervalMs` with a timeout), and drops a gateway at
 * once when its pod starts terminating (`withdraw`), before the kubelet's preStop pause and SIGTERM.
 */
export class GatewayBalancer {
  private readonly failures: number[];
  private readonly withdrawn = new Set<string>();
  private next = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly gateways: { gatewayUrl: string; gatewayHealthUrl: string }[],
    private readonly intervalMs = 250,
    private readonly timeoutMs = 1_000,
  ) {
    this.failures = gateways.map(() => 0);
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

  /** The next ready gateway's API URL (any gateway when none is ready: the request then shows it). */
  pick = (): string => {
    for (let tried = 0; tried < this.gateways.length; tried++) {
      const i = this.next++ % this.gateways.length;
      if (this.failures[i] < FAILURE_THRESHOLD && !this.withdrawn.has(this.gateways[i].gatewayUrl)) return this.gateways[i].gatewayUrl;
    }
    return this.gateways[this.next++ % this.gateways.length].gatewayUrl;
  };

  private async probe(): Promise<void> {
    await Promise.all(
      this.gateways.map(async ({ gatewayHealthUrl }, i) => {
        const ready = await fetch(gatewayHealthUrl, { signal: AbortSignal.timeout(this.timeoutMs) }).then(
          (res) => {
            void res.body?.cancel();
            return res.ok;
          },
          () => false,
        );
        this.failures[i] = ready ? 0 : this.failures[i] + 1;
      }),
    );
  }
}
