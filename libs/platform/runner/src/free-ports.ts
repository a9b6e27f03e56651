import { createServer } from 'node:net';

/** True when nothing listens on the port on any IPv4 address (a server that binds 0.0.0.0 needs them all). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '0.0.0.0', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export interface PortClaim {
  port: number;
  /** Who would listen there, e.g. "the health port of tables". */
  owner: string;
  /** The setting that moves it. */
  setting: string;
}

/** The claims whose port is already taken, in the order given. */
export async function takenPorts(claims: readonly PortClaim[]): Promise<PortClaim[]> {
  const free = await Promise.all(claims.map((claim) => portIsFree(claim.port)));
  return claims.filter((_, index) => !free[index]);
}
