/**
 * `{{name}}` or `{{contact.key}}`, with optional spaces inside the braces, and optionally a
 * fallback for an unset value after a bar: `{{contact.first_name|there}}`. Braces around
 * anything else (`{{ two words }}`, `{{}}`) are not a template and stay as written. The
 * engine fills templates and the validator checks them with this one pattern.
 */
export const TEMPLATE = /\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)?)\s*(?:\|([^{}]*))?\}\}/g
