/**
 * A link inside running text: underlined as well as coloured, as WCAG asks of a link told from the
 * words around it (axe's link-in-text-block; sky-700 beside zinc text is colour alone). Lists and
 * tables of links keep their hover underline.
 */
export const TEXT_LINK = "text-sky-700 underline decoration-sky-700/40 underline-offset-2 hover:decoration-current dark:text-sky-400 dark:decoration-sky-400/40";
