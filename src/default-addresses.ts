/**
 * Where PostgreSQL and Redis are looked for when DATABASE_URL and REDIS_URL are not set: the configuration's defaults
 * (src/config.ts), which src/main/local-services.ts tries before it starts this checkout's own servers. Imports nothing,
 * so that it can be read before the configuration is.
 */
export const DEFAULT_DATABASE_URL = "postgresql://root@127.0.0.1:5432/video_service";
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
