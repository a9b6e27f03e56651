export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __testStack?: { stop(): Promise<void> } }).__testStack?.stop();
}
