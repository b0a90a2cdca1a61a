/**
 * OpenTelemetry tracing (docs/operations.md, "Tracing"): on only when an OTLP endpoint is
 * configured. Off, nothing of OpenTelemetry is loaded and nothing is wrapped: the settings are read
 * here, and the SDK and instrumentations are imported only when they are needed. Bundled, they are
 * dist/tracing.js, a bundle of its own beside dist/main.js (scripts/build.mjs).
 */
import { projectFile, setTraceparentSource } from '../shared/index.ts';
import type { Tracing } from './tracing.ts';
import { tracingSettings } from './tracing-settings.ts';

export type { Tracing } from './tracing.ts';

/** This module's own URL ends in .ts only when the service runs from its sources. */
const fromSources = import.meta.url.endsWith('.ts');

/** Starts tracing when `env` configures it; undefined otherwise (a ConfigError when misconfigured). */
export async function loadTracing(env: Record<string, string | undefined>): Promise<Tracing | undefined> {
  const settings = tracingSettings(env);
  if (!settings) return undefined;
  const module = fromSources ? new URL('./start-tracing.ts', import.meta.url) : projectFile('dist/tracing.js');
  const { startTracing } = (await import(module.href)) as typeof import('./start-tracing.ts');
  return startTracing(settings, setTraceparentSource);
}
