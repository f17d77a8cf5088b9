/**
 * The service's parameter rules: one implementation for the sandbox (which answers with them), the
 * proxy (which refuses before anything is billed) and the dashboard's forms. Each refusal is a
 * ParamError whose code, message and hint both servers send as their 400 body.
 */
export { exactlyOneKey, positiveInt, singleValues, type RawQuery } from './query.ts';
export { DEFAULT_PAGE_SIZE, parseProfileSearch, searchValue } from './profile-search.ts';
export { formatProfileId, parseProfileIdsBody } from './profile-id.ts';
export { LIST_PARAMS, isCompactDate, parseListQuery, type ListQuery } from './list-query.ts';
export { AUTOCOMPLETE_MAX_LIMIT, parseAutocompleteQuery } from './autocomplete-query.ts';
