/** The members of `Union` that `List` leaves out. */
type Unlisted<Union, List extends readonly unknown[]> = Exclude<Union, List[number]>;

/**
 * Returns a function that returns its list unchanged, and compiles only when the list names every
 * member of `Union`: a member added to `Union` but not to the list is an error naming it
 * (`Property 'missing' is missing … { readonly missing: 'new-member' }`).
 *
 * ```ts
 * const turnStatuses = listingEvery<TurnStatus>()(['running', 'completed', …]);
 * ```
 *
 * @internal
 */
export const listingEvery =
  <Union>() =>
  <const List extends readonly Union[]>(
    list: List &
      ([Unlisted<Union, List>] extends [never]
        ? unknown
        : { readonly missing: Unlisted<Union, List> }),
  ): List =>
    list;
