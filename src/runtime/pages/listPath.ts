/**
 * The list a detail belongs to: a drawer's page without its `?id=`, else the path without its last
 * segment (and a `detail` segment before it): …/order-manage/7 → …/order-manage,
 * …/invoice-manage/detail/7 → …/invoice-manage.
 */
export function listPathOf(pathname: string, search: string): string {
  if (new URLSearchParams(search).has('id')) {
    const q = new URLSearchParams(search);
    q.delete('id');
    const rest = q.toString();
    return `${pathname}${rest ? `?${rest}` : ''}`;
  }
  const parts = pathname.replace(/\/+$/, '').split('/');
  parts.pop();
  if (parts[parts.length - 1] === 'detail') parts.pop();
  return parts.join('/') || '/';
}
