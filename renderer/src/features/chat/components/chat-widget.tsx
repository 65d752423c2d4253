// Floating support chat button (docs/product.md §2 and §4). The sheet itself is loaded on first open so the
// dialog code stays out of the first page load; the first opening shows the Chat Support toast.
import { MessageCircle } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import { TOASTS } from '../../../../../shared/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../hooks/use-toast.ts';

const ChatPanel = lazy(() => import('./chat-panel.tsx'));

export function ChatWidget() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next && !opened) {
      setOpened(true);
      toast(TOASTS.chatOpened);
    }
  };

  return (
    <>
      <Button
        size="icon"
        aria-label="Open support chat"
        aria-haspopup="dialog"
        className="fixed right-4 bottom-4 z-40 size-14 rounded-full shadow-lg"
        onClick={() => onOpenChange(true)}
      >
        <MessageCircle className="size-6!" aria-hidden />
      </Button>
      {opened ? (
        <Suspense fallback={null}>
          <ChatPanel open={open} onOpenChange={onOpenChange} />
        </Suspense>
      ) : null}
    </>
  );
}
