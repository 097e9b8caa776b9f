import type { ChildProcess } from 'node:child_process';

export interface StartOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Address to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Seed files or directories (--seed), loaded before ddbd is healthy. */
  seed?: string | string[];
  /** Keep data in this directory (--db-path); in memory without. */
  dbPath?: string;
  /** More flags, as `ddbd --help` lists them. */
  args?: string[];
  /** ddbd's log level; 'warn' by default. */
  logLevel?: string;
  /** Another ddbd binary than this platform's package's. */
  binary?: string;
  /** How long to wait for GET /_ddbd/health to answer 200; 10000 ms by default. */
  timeoutMs?: number;
}

export interface Ddbd {
  /** http://127.0.0.1:PORT, for the SDK's endpoint. */
  endpoint: string;
  port: number;
  process: ChildProcess;
  /** Stops ddbd (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

export function startDdbd(options?: StartOptions): Promise<Ddbd>;
export function binaryPath(): string;
