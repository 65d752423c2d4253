import { useEffect, useRef } from 'react';

import { cn } from '../../../lib/utils.ts';
import type { ChatMessage } from '../hooks/canned-replies.ts';

export function ChatMessages({ messages, typing }: { messages: ChatMessage[]; typing: boolean }) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, typing]);
  return (
    <div
      className="flex-1 space-y-3 overflow-y-auto pr-1"
      role="log"
      aria-live="polite"
      aria-label="Chat messages"
    >
      {messages.map((message) => (
        <div
          key={message.id}
          className={cn('flex', message.sender === 'user' ? 'justify-end' : 'justify-start')}
        >
          <div
            className={cn(
              'max-w-[80%] rounded-lg px-3 py-2 text-sm',
              message.sender === 'user' ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
            )}
          >
            <p className="break-words whitespace-pre-wrap">{message.content}</p>
            <time className="mt-1 block text-[10px] opacity-70" dateTime={message.timestamp.toISOString()}>
              {message.timestamp.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
            </time>
          </div>
        </div>
      ))}
      {typing ? (
        <div className="flex justify-start" data-testid="typing-indicator">
          <div className="flex gap-1 rounded-lg bg-muted px-3 py-3" aria-label="Support is typing">
            <span className="size-2 animate-bounce rounded-full bg-muted-foreground" />
            <span className="size-2 animate-bounce rounded-full bg-muted-foreground [animation-delay:150ms]" />
            <span className="size-2 animate-bounce rounded-full bg-muted-foreground [animation-delay:300ms]" />
          </div>
        </div>
      ) : null}
      <div ref={end} />
    </div>
  );
}
