import { Form, useNavigate } from "@remix-run/react";
import { useRef, useState, type FormEvent } from "react";
import { FormToken, Button } from "~/components/shell";
import { ErrorList, SelectField, type Option } from "~/components/ui/field";
import { formatBytes } from "~/utils/date-time";
import { formatPercent } from "~/utils/format";
import { SERVER_RETRY_MS, recordAnswer, recordFailure } from "~/utils/network";

type Errors = Record<string, string[] | undefined>;
type Progress = { sent: number; total: number };

/**
 * The upload form. Without JavaScript it is a plain multipart POST to this page's action.
 * With JavaScript the same form data goes by XMLHttpRequest, which reports upload progress
 * (bytes sent / total) and can be cancelled; the server streams it the same way.
 */
export function FileUploadForm({
  domains,
  maxBytes,
  errors,
  defaultDomain,
}: {
  domains: Option[];
  maxBytes: number;
  errors?: Errors;
  defaultDomain?: string;
}) {
  const navigate = useNavigate();
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [clientErrors, setClientErrors] = useState<Errors | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [interrupted, setInterrupted] = useState<{ data: FormData; size: number; form: HTMLFormElement } | null>(null);
  const shown = clientErrors ?? errors ?? {};

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    setNote(null);
    setInterrupted(null);
    if (!(file instanceof File) || !file.name) return setClientErrors({ file: ["Choose a file to upload."] });
    if (file.size > maxBytes) return setClientErrors({ file: [`The file is larger than ${formatBytes(maxBytes)}.`] });
    setClientErrors({});
    send(data, file.size, event.currentTarget, false);
  }

  /**
   * One try of the upload. The same form data (and one-time token) goes again on a retry, so an
   * upload whose answer was lost is stored once. Seed §9: a 5xx answer is tried once more after
   * 1000 ms; no answer at all shows "Upload interrupted" with a retry that starts it again.
   */
  function send(data: FormData, size: number, form: HTMLFormElement, serverRetried: boolean) {
    const xhr = new XMLHttpRequest();
    xhrRef.current = xhr;
    xhr.open("POST", "/resources/files/upload");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => setProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : size });
    xhr.onload = () => {
      xhrRef.current = null;
      recordAnswer();
      if (xhr.status >= 500 && !serverRetried) {
        setTimeout(() => send(data, size, form, true), SERVER_RETRY_MS);
        return;
      }
      let body: { ok?: boolean; fieldErrors?: Errors; redirectTo?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = { fieldErrors: { file: ["The upload failed. Please try again."] } };
      }
      setProgress(null);
      if (xhr.status < 300 && body.ok) {
        // The response set the toast cookie; the list shows the new file.
        form.reset();
        navigate(body.redirectTo ?? "/files?view=mine");
      } else {
        setClientErrors(body.fieldErrors ?? { file: ["The upload failed. Please try again."] });
      }
    };
    xhr.onerror = () => {
      xhrRef.current = null;
      recordFailure();
      setProgress(null);
      setInterrupted({ data, size, form });
    };
    xhr.onabort = () => {
      xhrRef.current = null;
      setProgress(null);
      setNote("Upload cancelled: nothing was stored.");
    };
    setProgress({ sent: 0, total: size });
    xhr.send(data);
  }

  function tryAgain() {
    if (!interrupted) return;
    setInterrupted(null);
    send(interrupted.data, interrupted.size, interrupted.form, false);
  }

  const percent = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      onSubmit={onSubmit}
      className="space-y-4 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
      aria-label="Upload a file"
    >
      <h2 className="font-semibold">Upload a file</h2>
      <FormToken />
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField
          id="upload-domain"
          name="domain"
          label="Data domain"
          options={domains}
          defaultValue={defaultDomain ?? "policies"}
          errors={shown.domain}
        />
        <div>
          <label htmlFor="upload-file" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            File
          </label>
          <input
            id="upload-file"
            name="file"
            type="file"
            accept=".csv,.xls,.xlsx,.pdf,.doc,.docx"
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold dark:file:bg-slate-800"
            aria-invalid={shown.file?.length ? true : undefined}
            aria-describedby={shown.file?.length ? "upload-file-error" : "upload-file-hint"}
          />
          <p id="upload-file-hint" className="mt-1 text-xs text-slate-500">
            CSV, Excel (.xls, .xlsx), PDF or Word (.doc, .docx), up to {formatBytes(maxBytes)}.
          </p>
          <ErrorList id="upload-file-error" errors={shown.file} />
        </div>
      </div>
      {progress ? (
        <div className="space-y-2" data-testid="upload-progress">
          <progress
            className="h-2 w-full"
            value={progress.sent}
            max={progress.total || 1}
            aria-label="Upload progress"
            aria-valuenow={percent}
          />
          <div className="flex items-center justify-between text-sm text-slate-600 dark:text-slate-300">
            <span data-testid="upload-progress-text">
              {formatBytes(progress.sent)} of {formatBytes(progress.total)} sent ({formatPercent(percent, 0)})
            </span>
            <Button type="button" variant="secondary" onClick={() => xhrRef.current?.abort()}>
              Cancel upload
            </Button>
          </div>
        </div>
      ) : (
        <Button type="submit">Upload</Button>
      )}
      {interrupted ? (
        <div
          role="alert"
          data-testid="upload-interrupted"
          className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-700"
        >
          <p>Upload interrupted: Remarket could not be reached. Try again to start the upload again; the file will not be stored twice.</p>
          <Button type="button" variant="secondary" onClick={tryAgain}>
            Try again
          </Button>
        </div>
      ) : null}
      {note ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {note}
        </p>
      ) : null}
    </Form>
  );
}
