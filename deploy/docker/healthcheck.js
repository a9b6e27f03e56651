// Container health check: asks the process's own readiness route on HEALTH_PORT.
// The slim Node image has no curl or wget, and Node 20's fetch is enough.
const port = process.env.HEALTH_PORT;
fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(2500) })
  .then((response) => process.exit(response.ok ? 0 : 1))
  .catch(() => process.exit(1));
