import { useNavigation } from "@remix-run/react";

/** A global loading bar while a navigation or form submission is under way. */
export function ProgressBar() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div role="progressbar" aria-label="Loading" className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-brand-100">
      <div className="loading-bar h-full w-2/5 bg-brand-600" />
    </div>
  );
}
