export { parseQuery, QueryError, FIELDS, IS_VALUES, HAS_VALUES, MAX_QUERY_LENGTH, limitsBeside } from "./parse";
export type { Term, Field, TextField, QueryLimits, SearchWords } from "./parse";
