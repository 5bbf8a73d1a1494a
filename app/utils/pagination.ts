export type PageItem = { type: "page"; page: number } | { type: "break"; key: string };

/**
 * The page links to show, react-paginate style (seed §2: 2 pages in range, 3 margin pages):
 * `margin` pages at each end, `range` pages around the current one, a break between gaps.
 */
export function paginationItems(current: number, pageCount: number, range = 2, margin = 3): PageItem[] {
  if (pageCount <= 0) return [];
  const shown = new Set<number>();
  for (let p = 1; p <= Math.min(margin, pageCount); p++) shown.add(p);
  for (let p = Math.max(1, pageCount - margin + 1); p <= pageCount; p++) shown.add(p);
  const half = Math.floor(range / 2);
  let start = Math.max(1, current - half);
  const end = Math.min(pageCount, start + range - 1);
  start = Math.max(1, end - range + 1);
  for (let p = start; p <= end; p++) shown.add(p);
  shown.add(Math.min(Math.max(current, 1), pageCount));

  const items: PageItem[] = [];
  let previous = 0;
  for (const page of [...shown].sort((a, b) => a - b)) {
    if (page - previous === 2) items.push({ type: "page", page: page - 1 });
    else if (page - previous > 2) items.push({ type: "break", key: `break-${previous}` });
    items.push({ type: "page", page });
    previous = page;
  }
  return items;
}

/** Read ?page= as a positive integer (1 when missing or bad). */
export function readPage(url: URL | string) {
  const value = Number(new URL(url).searchParams.get("page"));
  return Number.isInteger(value) && value > 0 ? value : 1;
}

export function pageCountFor(total: number, pageSize: number) {
  return Math.max(1, Math.ceil(total / pageSize));
}
