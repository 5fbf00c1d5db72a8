/**
 * A promise the test opens by hand once its side of an ordering has happened (a reply read, a
 * draft seen, a listing cancelled): what waits on `opened` goes on then and not before.
 */
export function latch(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
