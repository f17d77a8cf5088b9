// Replaced by the profile work (issue 4): the tabbed carrier profile at /carriers/:dot/:tab.
export function ProfilePage() {
  return null;
}
