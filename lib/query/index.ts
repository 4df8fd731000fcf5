export { parseQuery, QueryError, FIELDS, IS_VALUES, HAS_VALUES, MAX_QUERY_LENGTH } from "./parse";
export type { Term, Field, TextField } from "./parse";
