"""What a brief says: the model's narrative (writer), the extractive summaries and template
narrative used without a model (summaries), and the safe Markdown subset they are shown in."""
