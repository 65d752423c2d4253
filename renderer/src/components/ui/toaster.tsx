import { TIMINGS } from '../../../../shared/constants.ts';
import { dismiss, useToast } from '../../hooks/use-toast.ts';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx';

export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider duration={TIMINGS.toastDurationMs} swipeThreshold={TIMINGS.toastSwipeThreshold}>
      {toasts.map(({ id, title, description, action, variant, duration, open }) => (
        <Toast
          key={id}
          variant={variant}
          duration={duration}
          open={open}
          onOpenChange={(next) => {
            if (!next) {
              dismiss(id);
            }
          }}
        >
          <div className="grid gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
