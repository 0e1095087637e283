package org.quadfence.stages;

import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InputSelectable;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * A {@link TileMatcher} for bounded inputs without checkpoints ({@code replay}): it reads only
 * fence updates while their watermark is behind the positions', so positions stay in the source
 * (back-pressured) instead of waiting here while a large fences file is read. The answers are the
 * same; only what waits in memory differs.
 *
 * <p>Flink refuses {@link InputSelectable} operators in a job that checkpoints, hence a stage of
 * its own that only the unchecked, bounded job uses.
 *
 * @param <P> {@link org.quadfence.model.Position}, or {@link org.quadfence.model.Step} with option
 *     {@code crossing}
 */
public class FencesFirstTileMatcher<P> extends TileMatcher<P>
        implements InputSelectable, BoundedMultiInput {

    private static final long serialVersionUID = 1L;

    private transient long fencesWatermark;
    private transient long positionsWatermark;
    private transient boolean fencesIdle;
    private transient boolean fencesDone;

    /** A tile stage that reads fences first, with the settings of {@code settings}. */
    public FencesFirstTileMatcher(TileMatcher<P> settings) {
        super(settings);
    }

    @Override
    public void open() throws Exception {
        super.open();
        fencesWatermark = Long.MIN_VALUE;
        positionsWatermark = Long.MIN_VALUE;
    }

    @Override
    public InputSelection nextSelection() {
        return !fencesDone && !fencesIdle && fencesWatermark < positionsWatermark
                ? InputSelection.FIRST
                : InputSelection.ALL;
    }

    @Override
    public void processWatermark1(Watermark mark) throws Exception {
        fencesWatermark = Math.max(fencesWatermark, mark.getTimestamp());
        super.processWatermark1(mark);
    }

    @Override
    public void processWatermark2(Watermark mark) throws Exception {
        positionsWatermark = Math.max(positionsWatermark, mark.getTimestamp());
        super.processWatermark2(mark);
    }

    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int index) throws Exception {
        // An idle fences input moves no watermark: waiting for it would stop the positions.
        if (index == 0) {
            fencesIdle = status.isIdle();
        }
        super.processWatermarkStatus(status, index);
    }

    @Override
    public void endInput(int inputId) {
        if (inputId == 1) {
            fencesDone = true;
        }
    }
}
