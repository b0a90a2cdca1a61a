/** What other modules use of the config module. */
export type { CirculoSettings } from './circulo-settings.ts';
export { type Config, loadConfig, ConfigError } from './config.ts';
