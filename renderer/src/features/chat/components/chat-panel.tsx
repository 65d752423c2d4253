// The support chat sheet titled "Vigil Support": signed-in users get simulated replies after 1.5 s,
// signed-out visitors are asked to sign in. Loaded on first open, then kept mounted to keep the history.
import { Send } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';

import { BRAND, TIMINGS } from '../../../../../shared/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '../../../components/ui/sheet.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { useAuth } from '../../../lib/auth/auth-context.ts';
import { canSend, type ChatMessage, pickReply } from '../hooks/canned-replies.ts';
import { ChatMessages } from './chat-messages.tsx';

export default function ChatPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { session } = useAuth();
  const signedIn = session !== null;
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState('');
  const [typing, setTyping] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const send = () => {
    // Guards the simulated conversation: signed-out visitors and blank messages send nothing.
    if (!canSend(signedIn, input)) {
      return;
    }
    const now = new Date();
    setMessages((list) => [
      ...list,
      { id: crypto.randomUUID(), content: input.trim(), sender: 'user', timestamp: now },
    ]);
    setInput('');
    setTyping(true);
    timers.current.push(
      setTimeout(() => {
        setTyping(false);
        setMessages((list) => [
          ...list,
          { id: crypto.randomUUID(), content: pickReply(), sender: 'agent', timestamp: new Date() },
        ]);
      }, TIMINGS.chatReplyDelayMs),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-describedby="chat-description">
        <SheetHeader>
          <SheetTitle>{`${BRAND} Support`}</SheetTitle>
          <SheetDescription id="chat-description">
            {signedIn
              ? 'Ask us anything about your security agents.'
              : 'Please sign in to chat with our support team'}
          </SheetDescription>
        </SheetHeader>
        <ChatMessages messages={messages} typing={typing} />
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <label htmlFor="chat-input" className="sr-only">
            Message
          </label>
          <Textarea
            id="chat-input"
            rows={2}
            className="min-h-0 resize-none"
            value={input}
            disabled={!signedIn}
            placeholder={signedIn ? 'Type your message...' : 'Sign in to chat with us'}
            onChange={(event) => setInput(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <Button type="submit" size="icon" aria-label="Send message" disabled={!canSend(signedIn, input)}>
            <Send aria-hidden />
          </Button>
        </form>
      </SheetContent>
    </Sheet>
  );
}
