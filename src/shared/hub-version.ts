/** The hub's version, as the OpenAPI document and every span name it (package.json's `version`). */
export const HUB_VERSION = '1.0.0';
